import { describe, expect, it } from 'vitest';
import { pairwiseRate, recallAtFpr, rocAuc } from '../../../shared/domain/analyzer/classifier/metrics';

describe('rocAuc (Mann-Whitney with ties)', () => {
  it('is 1 for perfect separation and 0 for perfectly reversed', () => {
    expect(rocAuc([0.9, 0.8], [0.1, 0.2, 0.3])).toBe(1);
    expect(rocAuc([0.1], [0.5, 0.6])).toBe(0);
  });
  it('matches a hand count with ties', () => {
    // pos {0.8, 0.5, 0.3}, neg {0.5, 0.2}: pairs (pos>neg)=1 for (0.8,0.5),(0.8,0.2),(0.5,0.2),(0.3,0.2);
    // tie (0.5,0.5) = 0.5; (0.3,0.5) = 0. Total 4.5 / 6 = 0.75
    expect(rocAuc([0.8, 0.5, 0.3], [0.5, 0.2])).toBeCloseTo(0.75, 12);
  });
  it('is 0.5 when every score ties', () => {
    expect(rocAuc([1, 1, 1], [1, 1])).toBe(0.5);
  });
  it('is NaN for an empty class', () => {
    expect(rocAuc([], [0.1])).toBeNaN();
  });
});

describe('recallAtFpr', () => {
  it('picks the threshold at the (k+1)-th highest negative', () => {
    // 20 negatives 0.00..0.19; 5% FPR allows k=1 false positive, so threshold = 0.18 (flag when > 0.18)
    const neg = Array.from({ length: 20 }, (_, i) => i / 100);
    expect(recallAtFpr([0.185, 0.5, 0.18, 0.1], neg, 0.05)).toBe(0.5);
  });
  it('never flags ties at the threshold', () => {
    expect(recallAtFpr([0.5, 0.5], [0.5, 0.5, 0.5, 0.5], 0.05)).toBe(0);
  });
  it('is 1 when the budget covers every negative', () => {
    expect(recallAtFpr([0], [0.9], 1)).toBe(1);
  });
});

describe('pairwiseRate', () => {
  it('counts ties as half', () => {
    expect(pairwiseRate([[1, 0], [0, 1], [0.5, 0.5], [0.7, 0.2]])).toBeCloseTo(2.5 / 4, 12);
  });
});
