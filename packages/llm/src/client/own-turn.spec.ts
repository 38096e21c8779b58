import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import { ownTurn } from './own-turn.js';

describe('ownTurn', () => {
  it('lets the first caller of a turn go on and sends the others to turns of their own, in order', async () => {
    await nextTurn();
    const order: string[] = [];
    const take = async (name: string) => {
      await ownTurn();
      order.push(name);
      // Work the caller does in its turn (microtasks only) stays in that turn.
      await Promise.resolve();
      order.push(`${name} done`);
    };
    const all = Promise.all([take('a'), take('b'), take('c')]);
    await all;
    expect(order).toEqual(['a', 'a done', 'b', 'b done', 'c', 'c done']);
  });

  it('lets a call go on at once in each new turn', async () => {
    await nextTurn();
    expect(ownTurn()).toBeUndefined();
    // (A promise of Node's own realm, not Jest's: checked by shape.)
    expect(typeof ownTurn()?.then).toBe('function');
    await nextTurn();
    expect(ownTurn()).toBeUndefined();
  });
});
