import type { StepOrder } from '@precis/engine/family';

// The order a book strategy's steps run in, from the keys strategies/*.ts give them:
// h/<level>/<index> by level then index, i/0 then i/u/<n> and i/c/<n> by n (update before
// compression), */clean last. Numbers, not strings: h/0/2 comes before h/0/10. Keys of other
// shapes rank equal, so they keep the order they were planned in.
export const booksStepOrder: StepOrder = (key) => {
  const parts = key.split('/');
  if (parts[1] === 'clean') return [Number.POSITIVE_INFINITY];
  if (parts[0] === 'h' && parts.length === 3) return [Number(parts[1]), Number(parts[2])];
  if (parts[0] === 'i' && parts[1] === '0') return [0, 0];
  if (parts[0] === 'i' && parts.length === 3) return [Number(parts[2]), parts[1] === 'u' ? 0 : 1];
  return [];
};
