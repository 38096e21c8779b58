import { describe, expect, it } from '@jest/globals';
import { cachedFailuresHint } from './cached-failures.js';

describe('cachedFailuresHint', () => {
  it('says how many failed tasks used cached replies and the command that asks again', () => {
    expect(cachedFailuresHint(2, 'precis run examples/kgds.yaml --no-cache')).toBe(
      '2 failed tasks used cached model replies; `precis run examples/kgds.yaml --no-cache` asks the models again',
    );
    expect(cachedFailuresHint(1, 'precis run <spec> --no-cache')).toBe(
      '1 failed task used cached model replies; `precis run <spec> --no-cache` asks the models again',
    );
  });

  it('says nothing when no failed task used the cache', () => {
    expect(cachedFailuresHint(0, 'precis run s.yaml --no-cache')).toBeNull();
  });
});
