// BooookScore's eight confusion types (METHODS.md §1.6), in the order reports list them.
export const CONFUSION_TYPES = [
  'entity omission',
  'event omission',
  'causal omission',
  'salience',
  'discontinuity',
  'duplication',
  'inconsistency',
  'language',
] as const;

export type ConfusionType = (typeof CONFUSION_TYPES)[number];

export function isConfusionType(value: string): value is ConfusionType {
  return (CONFUSION_TYPES as readonly string[]).includes(value);
}

// Accepts the canonical names with loose case, spacing and hyphens ("Entity-Omission").
export function normalizeConfusionType(value: string): ConfusionType | null {
  const key = value.trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
  return isConfusionType(key) ? key : null;
}
