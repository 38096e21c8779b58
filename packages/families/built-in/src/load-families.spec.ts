import { describe, expect, it } from '@jest/globals';
import { builtInFamilies } from './built-in-families.js';
import { familyModules, loadedFamilies, loadFamilies } from './load-families.js';

const HOW =
  "give a package name or a path to the family's built module (e.g. ./my-family/dist/index.js), " +
  'which exports `family` (or a default export) made with the BenchmarkFamily interface of @precis/engine/family';

describe('PRECIS_FAMILIES', () => {
  it('lists module names and paths, comma-separated, blanks ignored', () => {
    expect(familyModules({})).toEqual([]);
    expect(familyModules({ PRECIS_FAMILIES: ' ./a/dist/index.js, ,@acme/family-b ,' })).toEqual([
      './a/dist/index.js',
      '@acme/family-b',
    ]);
  });

  it('refuses to hand out the shipped families alone while extra ones are named but not loaded', () => {
    const before = process.env.PRECIS_FAMILIES;
    process.env.PRECIS_FAMILIES = './x.js';
    try {
      expect(() => loadedFamilies()).toThrow(
        'PRECIS_FAMILIES is set but loadFamilies() was not awaited before the families were used',
      );
    } finally {
      if (before === undefined) delete process.env.PRECIS_FAMILIES;
      else process.env.PRECIS_FAMILIES = before;
    }
  });

  it('loads the shipped families alone when it is unset', async () => {
    await expect(loadFamilies({}, '/')).resolves.toBe(builtInFamilies());
    expect(loadedFamilies()).toBe(builtInFamilies());
  });

  it('names a module that exports no family, and keeps what was loaded', async () => {
    await expect(loadFamilies({ PRECIS_FAMILIES: 'node:path' }, '/')).rejects.toThrow(
      `PRECIS_FAMILIES: "node:path" exports no benchmark family; ${HOW}`,
    );
    expect(loadedFamilies()).toBe(builtInFamilies());
  });

  it('names a module it cannot find, with where it looked', async () => {
    await expect(loadFamilies({ PRECIS_FAMILIES: './missing/index.js' }, '/nowhere')).rejects.toThrow(
      /^PRECIS_FAMILIES: cannot load "\.\/missing\/index\.js": Cannot find module '\/nowhere\/missing\/index\.js'/,
    );
  });
});
