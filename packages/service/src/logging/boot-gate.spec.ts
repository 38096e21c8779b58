import { describe, expect, it } from '@jest/globals';
import { bootGate } from './boot-gate.js';

describe('bootGate', () => {
  it('passes only warn and above until opened, then every line', () => {
    const lines: string[] = [];
    const gate = bootGate({ write: (l: string) => lines.push(l) });
    gate.destination.write('{"level":"info","msg":"starting"}\n');
    gate.destination.write('{"level":"debug","msg":"detail"}\n');
    gate.destination.write('{"level":"warn","msg":"slow disk"}\n');
    gate.destination.write('{"level":"fatal","msg":"port in use"}\n');
    gate.open();
    gate.destination.write('{"level":"info","msg":"grpc call"}\n');
    expect(lines).toEqual([
      '{"level":"warn","msg":"slow disk"}\n',
      '{"level":"fatal","msg":"port in use"}\n',
      '{"level":"info","msg":"grpc call"}\n',
    ]);
  });
});
