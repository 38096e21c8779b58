import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { resolvePrecisHome } from '../../src/index.js';

describe('resolvePrecisHome finds the home like git finds .git', () => {
  const root = mkdtempSync(join(tmpdir(), 'precis-home-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('uses the nearest parent with a .precis directory, so subfolders see the same runs', () => {
    const repo = join(root, 'repo');
    mkdirSync(join(repo, '.precis'), { recursive: true });
    mkdirSync(join(repo, 'examples', 'fake'), { recursive: true });
    expect(resolvePrecisHome({}, repo)).toBe(join(repo, '.precis'));
    expect(resolvePrecisHome({}, join(repo, 'examples'))).toBe(join(repo, '.precis'));
    expect(resolvePrecisHome({}, join(repo, 'examples', 'fake'))).toBe(join(repo, '.precis'));
  });

  it('prefers a nearer .precis, skips a .precis that is a file, and obeys PRECIS_HOME', () => {
    const outer = join(root, 'outer');
    const inner = join(outer, 'inner');
    mkdirSync(join(outer, '.precis'), { recursive: true });
    mkdirSync(join(inner, '.precis'), { recursive: true });
    expect(resolvePrecisHome({}, inner)).toBe(join(inner, '.precis'));
    const plain = join(outer, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, '.precis'), 'not a directory');
    expect(resolvePrecisHome({}, plain)).toBe(join(outer, '.precis'));
    expect(resolvePrecisHome({ PRECIS_HOME: 'elsewhere' }, inner)).toBe(join(inner, 'elsewhere'));
  });

  it('falls back to a new .precis in the working directory when no parent has one', () => {
    const lone = join(root, 'lone', 'dir');
    mkdirSync(lone, { recursive: true });
    expect(resolvePrecisHome({}, lone)).toBe(join(lone, '.precis'));
  });
});
