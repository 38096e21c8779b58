import { describe, expect, it } from '@jest/globals';
import { PermanentTaskError } from '@precis/engine';
import { parseIngestTaskPayload } from './ingest-task.js';

describe('parseIngestTaskPayload', () => {
  it('accepts the ImportDatasetRequest shape, replace defaulting to false', () => {
    expect(parseIngestTaskPayload('t', { kind: 'kgds', path: '/d/k.json', datasetName: 'k' })).toEqual({
      kind: 'kgds',
      path: '/d/k.json',
      datasetName: 'k',
      replace: false,
    });
  });

  it('names the task and the bad field as a permanent invalid-argument error', () => {
    const err = (() => {
      try {
        parseIngestTaskPayload('ingest:1', { kind: 'kgds', path: '', datasetName: 'k' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(PermanentTaskError);
    expect((err as PermanentTaskError).code).toBe('invalid-argument');
    expect((err as Error).message).toBe(
      'ingest task ingest:1: payload field path must be a non-empty string',
    );
    expect(() => parseIngestTaskPayload('t', [])).toThrow('payload must be a JSON object');
    expect(() =>
      parseIngestTaskPayload('t', { kind: 'a', path: 'b', datasetName: 'c', replace: 'yes' }),
    ).toThrow('payload field replace must be a boolean');
  });
});
