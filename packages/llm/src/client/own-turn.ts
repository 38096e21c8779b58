import { setImmediate as nextTurn } from 'node:timers/promises';

let taken = false;

// Nothing to wait for (undefined) for the first caller of the current event-loop turn (the
// callback running now and the microtasks it leads to); a later turn of its own for every other
// caller. A model call takes its turn before it builds its request: the request is written to
// its socket only once the turn's microtasks are done, so when a worker starts many calls at once
// each one's request goes out before the next is built, and a lone call does not wait at all.
export function ownTurn(): Promise<void> | undefined {
  if (taken) return nextTurn();
  taken = true;
  process.nextTick(() => {
    taken = false;
  });
  return undefined;
}
