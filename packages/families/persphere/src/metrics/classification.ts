// Macro-F1 over labels (stance detection, reference determination in PerSphere §3.5): the
// unweighted mean of per-label F1, over labels present in gold or predictions (sklearn's default).
export function macroF1<T extends string | number | boolean>(
  gold: readonly T[],
  predicted: readonly T[],
): number {
  if (gold.length !== predicted.length) {
    throw new RangeError(
      `gold has ${gold.length} labels but predicted has ${predicted.length}; they must be paired`,
    );
  }
  if (gold.length === 0) return Number.NaN;
  const labels = new Set<T>([...gold, ...predicted]);
  let sum = 0;
  for (const label of labels) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (let i = 0; i < gold.length; i++) {
      const g = gold[i] === label;
      const p = predicted[i] === label;
      if (g && p) tp++;
      else if (p) fp++;
      else if (g) fn++;
    }
    // A label is in the set only if it occurs, so 2tp + fp + fn > 0.
    sum += (2 * tp) / (2 * tp + fp + fn);
  }
  return sum / labels.size;
}
