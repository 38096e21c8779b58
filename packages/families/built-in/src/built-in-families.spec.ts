import { describe, expect, it } from '@jest/globals';
import { builtInFamilies } from './built-in-families.js';

describe('builtInFamilies', () => {
  it('loads the five shipped families once, in a fixed order', () => {
    expect(builtInFamilies().families.map((f) => f.name)).toEqual([
      'books',
      'opinion',
      'kgds',
      'persphere',
      'gor',
    ]);
    expect(builtInFamilies()).toBe(builtInFamilies());
  });
});
