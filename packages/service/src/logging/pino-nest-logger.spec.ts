import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { createServiceLogger, taskLogger } from './create-logger.js';
import { PinoNestLogger } from './pino-nest-logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  return {
    lines,
    logger: createServiceLogger({ service: 'svc', version: '1.2.3', level: 'debug', destination }),
  };
}

describe('service logger', () => {
  it('writes JSON lines with service, version and level names', () => {
    const { lines, logger } = capture();
    logger.info({ n: 1 }, 'hello');
    expect(lines[0]).toMatchObject({ service: 'svc', version: '1.2.3', level: 'info', msg: 'hello', n: 1 });
    expect(typeof lines[0]?.time).toBe('string');
  });

  it('adds run and task ids in task child loggers and redacts credentials', () => {
    const { lines, logger } = capture();
    taskLogger(logger, { taskId: 't1', runId: 'r1', stage: 'ingest' }).warn(
      { headers: { authorization: 'Bearer x' } },
      'x',
    );
    expect(lines[0]).toMatchObject({
      taskId: 't1',
      runId: 'r1',
      stage: 'ingest',
      headers: { authorization: '[redacted]' },
    });
  });
});

describe('PinoNestLogger', () => {
  it('maps Nest calls to levels, keeps the context and the stack', () => {
    const { lines, logger } = capture();
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped route', 'RoutesResolver');
    nest.log('ready to serve', 'AppController');
    nest.error('boom', 'Error: boom\n    at x (file.js:1:1)', 'ExceptionHandler');
    nest.verbose('hidden at debug level');
    nest.warn({ detail: 1 });
    // Nest's own start-up lines go to debug, below the default info level.
    expect(lines.map((l) => [l.level, l.msg ?? null])).toEqual([
      ['debug', 'Mapped route'],
      ['info', 'ready to serve'],
      ['error', 'boom'],
      ['warn', null],
    ]);
    expect(lines[1]).toMatchObject({ context: 'AppController' });
    expect(lines[2]).toMatchObject({ context: 'ExceptionHandler' });
    expect(String(lines[2]?.stack)).toContain('at x (file.js:1:1)');
    expect(lines[3]).toMatchObject({ detail: 1 });
  });
});
