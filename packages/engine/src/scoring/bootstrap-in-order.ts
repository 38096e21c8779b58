import { type BootstrapMeanResult, bootstrapMean } from '@precis/metrics';

// Bootstrap of a mean over values taken in a fixed order (the run's document order): the
// resampling draws by index, so the same values in another order would give another CI.
export function bootstrapInOrder(
  values: readonly { order: number; value: number }[],
  options: { resamples: number; seed: number | string },
): BootstrapMeanResult | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a.order - b.order);
  return bootstrapMean(
    sorted.map((v) => v.value),
    options,
  );
}
