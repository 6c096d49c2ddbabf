import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fUpperTail,
  incompleteBeta,
  lnGamma,
  normalCdf,
  normalQuantile,
  studentTCdf,
  studentTQuantile,
  studentTTwoSidedP,
} from '../../../shared/domain/stats';

// Reference values computed independently with SciPy 1.17.1 (scipy.special.betainc, scipy.stats.t/f/norm).
describe('special functions against SciPy reference values', () => {
  it('regularized incomplete beta', () => {
    expect(incompleteBeta(0.3, 2.5, 3.5)).toBeCloseTo(0.29675298929566646, 12);
    expect(incompleteBeta(0.02, 0.5, 10)).toBeCloseTo(0.4698474238676093, 12);
    expect(incompleteBeta(0.45, 50, 60)).toBeCloseTo(0.4642352914306031, 10);
  });

  it('Student t and F tails and quantiles', () => {
    expect(studentTTwoSidedP(2.1, 7)).toBeCloseTo(0.07387119621292265, 12);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 9);
    expect(studentTQuantile(0.975, 3)).toBeCloseTo(3.1824463052837078, 9);
    expect(studentTQuantile(0.995, 120)).toBeCloseTo(2.6174211451068654, 9);
    expect(fUpperTail(3.2, 3, 40)).toBeCloseTo(0.03342118072289293, 12);
  });

  it('normal distribution', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalCdf(-3.1)).toBeCloseTo(0.0009676032132183563, 14);
  });

  it('log-gamma matches factorials and Γ(1/2) = √π', () => {
    expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 9);
    let f = 1;
    for (let n = 1; n <= 20; n++) {
      expect(lnGamma(n + 1)).toBeCloseTo(Math.log((f *= n)), 8);
    }
  });
});

describe('special functions: closed-form properties', () => {
  const unit = fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true });
  const shape = fc.double({ min: 0.1, max: 40, noNaN: true });

  it('I_x(a,1) = x^a, I_x(1,b) = 1-(1-x)^b and I_x(a,b) = 1 - I_{1-x}(b,a)', () => {
    fc.assert(
      fc.property(unit, shape, shape, (x, a, b) => {
        expect(incompleteBeta(x, a, 1)).toBeCloseTo(x ** a, 9);
        expect(incompleteBeta(x, 1, b)).toBeCloseTo(1 - (1 - x) ** b, 9);
        expect(incompleteBeta(x, a, b)).toBeCloseTo(1 - incompleteBeta(1 - x, b, a), 9);
      }),
    );
  });

  it('t with 1 df is Cauchy and with 2 df has a closed form; CDF is symmetric', () => {
    fc.assert(
      fc.property(fc.double({ min: -50, max: 50, noNaN: true }), (t) => {
        expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 10);
        expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 10);
        expect(studentTCdf(t, 7.5) + studentTCdf(-t, 7.5)).toBeCloseTo(1, 12);
      }),
    );
  });

  it('F(1, d) upper tail equals the two-sided t p-value of sqrt(F); quantile inverts the CDF', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 30, noNaN: true }), fc.integer({ min: 1, max: 200 }), unit, (t, df, p) => {
        expect(fUpperTail(t * t, 1, df)).toBeCloseTo(studentTTwoSidedP(t, df), 10);
        const q = studentTQuantile(Math.min(0.999, Math.max(0.001, p)), df);
        expect(studentTCdf(q, df)).toBeCloseTo(Math.min(0.999, Math.max(0.001, p)), 8);
      }),
    );
  });
});
