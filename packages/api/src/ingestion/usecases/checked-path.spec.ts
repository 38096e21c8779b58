import { describe, expect, it } from '@jest/globals';
import { InvalidInputError } from '@precis/engine';
import { toGrpcException } from '../../grpc/domain-status.js';
import { checkedPath } from './checked-path.js';

// The refusal as a gRPC caller receives it.
function refusal(path: string): { code: number; message: string } {
  try {
    checkedPath(path);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInputError);
    return toGrpcException(err as InvalidInputError).getError() as { code: number; message: string };
  }
  throw new Error('expected a refusal');
}

describe('ImportDataset paths', () => {
  it('accepts an ordinary path, trimmed', () => {
    expect(checkedPath('  data/kgds.json ')).toBe('data/kgds.json');
  });

  it('refuses a NUL, another control character, an empty and an over-long path as INVALID_ARGUMENT', () => {
    expect(refusal('data/a\u0000b.json')).toEqual({
      code: 3,
      message: 'path holds a control character (code 0) at position 7; no file path can',
    });
    expect(refusal('a\nb').message).toBe(
      'path holds a control character (code 10) at position 2; no file path can',
    );
    expect(refusal('   ').message).toBe('path is empty; give the file path as the ingestion service sees it');
    expect(refusal('x'.repeat(4097))).toEqual({
      code: 3,
      message: 'path is 4097 characters long; at most 4096 are accepted',
    });
  });
});
