import { describe, expect, it } from '@jest/globals';
import { validateDatasetName } from './import-dataset.js';

describe('dataset names', () => {
  it('accepts up to 100 characters and refuses longer ones without echoing them whole', () => {
    expect(() => validateDatasetName('d'.repeat(100))).not.toThrow();
    const huge = `x${'y'.repeat(1_000_000)}`;
    expect(() => validateDatasetName(huge)).toThrow(
      `invalid dataset name "x${'y'.repeat(39)}..." (1000001 characters): use 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  });
});
