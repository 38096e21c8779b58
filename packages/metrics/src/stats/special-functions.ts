// Special functions behind the p-values: log-gamma, regularized incomplete gamma and beta,
// the normal and Student t distributions. Continued fractions follow the modified Lentz method.

const EPS = 1e-16;
const FPMIN = 1e-300;
const MAX_ITERATIONS = 100_000;

// Lanczos approximation (g = 7, n = 9): ~15 significant digits for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function logGamma(x: number): number {
  if (x < 0.5) {
    // Reflection formula keeps the approximation in its accurate range.
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  }
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

function gammaSeries(a: number, x: number): number {
  let ap = a;
  let del = 1 / a;
  let sum = del;
  for (let n = 0; n < MAX_ITERATIONS; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / FPMIN;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = b + an / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

// Regularized lower incomplete gamma P(a, x).
export function regularizedGammaP(a: number, x: number): number {
  if (!(a > 0) || x < 0) throw new RangeError(`regularizedGammaP needs a > 0 and x >= 0, got a=${a}, x=${x}`);
  if (x === 0) return 0;
  if (x === Number.POSITIVE_INFINITY) return 1;
  return x < a + 1 ? gammaSeries(a, x) : 1 - gammaContinuedFraction(a, x);
}

// Regularized upper incomplete gamma Q(a, x) = 1 - P(a, x), computed directly for small tails.
export function regularizedGammaQ(a: number, x: number): number {
  if (!(a > 0) || x < 0) throw new RangeError(`regularizedGammaQ needs a > 0 and x >= 0, got a=${a}, x=${x}`);
  if (x === 0) return 1;
  if (x === Number.POSITIVE_INFINITY) return 0;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x);
}

export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  return x >= 0 ? regularizedGammaQ(0.5, x * x) : 1 + regularizedGammaP(0.5, x * x);
}

export function erf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  return x >= 0 ? regularizedGammaP(0.5, x * x) : -regularizedGammaP(0.5, x * x);
}

// Standard normal CDF Φ(z); tails are computed directly so tiny p-values keep their precision.
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

// Survival function 1 - Φ(z).
export function normalSf(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < FPMIN) d = FPMIN;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

// I_x(a, b) given both x and y = 1 - x, so callers can pass a precise complement.
function incompleteBeta(x: number, y: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (y <= 0) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(y);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(lnFront) * betaContinuedFraction(a, b, x)) / a;
  return 1 - (Math.exp(lnFront) * betaContinuedFraction(b, a, y)) / b;
}

// Regularized incomplete beta function I_x(a, b).
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedIncompleteBeta needs a, b > 0, got a=${a}, b=${b}`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`regularizedIncompleteBeta needs 0 <= x <= 1, got ${x}`);
  return incompleteBeta(x, 1 - x, a, b);
}

// P(T > |t|) for Student's t with df degrees of freedom (one tail).
function studentTTail(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`Student t needs df > 0, got ${df}`);
  if (df === Number.POSITIVE_INFINITY) return normalSf(Math.abs(t));
  const t2 = t * t;
  if (t2 === Number.POSITIVE_INFINITY) return 0;
  return 0.5 * incompleteBeta(df / (df + t2), t2 / (df + t2), df / 2, 0.5);
}

export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  const tail = studentTTail(t, df);
  return t > 0 ? 1 - tail : tail;
}

export function studentTSf(t: number, df: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  const tail = studentTTail(t, df);
  return t > 0 ? tail : 1 - tail;
}

// Two-sided p-value P(|T| >= |t|).
export function studentTTwoSidedP(t: number, df: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  return Math.min(1, 2 * studentTTail(t, df));
}
