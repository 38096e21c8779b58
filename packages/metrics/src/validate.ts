// Input checks shared by the metric functions: fail loudly on malformed input instead of
// returning a plausible-looking number.

export function assertFiniteArray(values: readonly number[], name: string): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new RangeError(
        `${name}[${i}] is ${String(v)}; expected a finite number (remove or impute missing values)`,
      );
    }
  }
}

export function assertSameLength(
  a: readonly unknown[],
  b: readonly unknown[],
  nameA: string,
  nameB: string,
): void {
  if (a.length !== b.length) {
    throw new RangeError(`${nameA} has ${a.length} values but ${nameB} has ${b.length}; they must be paired`);
  }
}

export function assertPositiveInteger(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}

export function isConstant(values: readonly number[]): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}
