import { describe, expect, it } from '@jest/globals';
import {
  erf,
  logGamma,
  normalCdf,
  normalSf,
  regularizedGammaP,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTSf,
  studentTTwoSidedP,
} from './special-functions.js';

// Reference values from scipy 1.17 (scipy.stats.norm, scipy.stats.t, scipy.special).
describe('special functions', () => {
  it('logGamma matches known values', () => {
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    expect(logGamma(100.5)).toBeCloseTo(361.43554046777757, 10);
    expect(logGamma(1e-3)).toBeCloseTo(6.907178885383853, 12);
  });

  it('normal CDF and tails', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 14);
    expect(normalCdf(-1.96)).toBeCloseTo(0.024997895148220435, 14);
    expect(normalCdf(3.5)).toBeCloseTo(0.9997673709209645, 14);
    // Deep tail keeps relative precision.
    expect(normalCdf(-8) / 6.22096057427174e-16).toBeCloseTo(1, 10);
    expect(normalSf(8) / 6.22096057427174e-16).toBeCloseTo(1, 10);
    expect(erf(0.5)).toBeCloseTo(0.5204998778130465, 14);
    expect(erf(-0.5)).toBeCloseTo(-0.5204998778130465, 14);
  });

  it('regularized incomplete gamma and beta', () => {
    // P(1, x) = 1 - e^-x.
    expect(regularizedGammaP(1, 2)).toBeCloseTo(1 - Math.exp(-2), 14);
    expect(regularizedGammaP(1, 0.1)).toBeCloseTo(1 - Math.exp(-0.1), 14);
    // I_x(1, 1) = x; I_x(a, 1) = x^a.
    expect(regularizedIncompleteBeta(0.37, 1, 1)).toBeCloseTo(0.37, 14);
    expect(regularizedIncompleteBeta(0.6, 3, 1)).toBeCloseTo(0.216, 14);
    expect(regularizedIncompleteBeta(0.3, 2.5, 3.5)).toBeCloseTo(0.29675298929566646, 12);
    expect(regularizedIncompleteBeta(0.01, 0.5, 50)).toBeCloseTo(0.6826956021258024, 12);
    expect(() => regularizedIncompleteBeta(1.5, 1, 1)).toThrow(RangeError);
  });

  it('Student t CDF', () => {
    expect(studentTCdf(0, 4)).toBeCloseTo(0.5, 14);
    expect(studentTCdf(2, 5)).toBeCloseTo(0.9490302605850708, 12);
    expect(studentTCdf(-1.5, 3.7)).toBeCloseTo(0.10679908460100675, 12);
    expect(studentTSf(10, 2)).toBeCloseTo(0.004926228511662845, 14);
    expect(studentTCdf(0.3, 1000.5)).toBeCloseTo(0.6178802634936338, 12);
    // df = 1 is the Cauchy distribution: F(t) = 1/2 + atan(t)/pi.
    expect(studentTCdf(1.7, 1)).toBeCloseTo(0.5 + Math.atan(1.7) / Math.PI, 13);
    // df = 2 has a closed form: F(t) = 1/2 + t / (2 sqrt(2 + t^2)).
    expect(studentTCdf(-0.8, 2)).toBeCloseTo(0.5 - 0.8 / (2 * Math.sqrt(2.64)), 13);
    expect(studentTTwoSidedP(-2.5, 10)).toBeCloseTo(2 * studentTCdf(-2.5, 10), 14);
    expect(studentTCdf(1.5, Number.POSITIVE_INFINITY)).toBeCloseTo(normalCdf(1.5), 14);
  });
});
