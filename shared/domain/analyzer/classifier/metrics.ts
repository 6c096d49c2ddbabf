// Evaluation metrics (pure). Used by scripts/lib/eval-public.ts and by training for model selection.

/** ROC AUC via the Mann-Whitney U statistic: P(score(pos) > score(neg)) + 0.5 * P(tie). NaN if a class is empty. */
export function rocAuc(pos: readonly number[], neg: readonly number[]): number {
  if (pos.length === 0 || neg.length === 0) return Number.NaN;
  const all = [...pos.map((s) => [s, 1] as const), ...neg.map((s) => [s, 0] as const)].sort((a, b) => a[0] - b[0]);
  // average ranks (1-based) over ties
  let rankSumPos = 0;
  let i = 0;
  while (i < all.length) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]![0] === all[i]![0]) j++;
    const avgRank = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) if (all[k]![1] === 1) rankSumPos += avgRank;
    i = j + 1;
  }
  const u = rankSumPos - (pos.length * (pos.length + 1)) / 2;
  return u / (pos.length * neg.length);
}

/**
 * Recall at a false-positive-rate budget: the highest recall over thresholds t (flag when score > t) whose
 * false-positive rate (share of negatives with score > t) is at most `fpr`. With k = floor(fpr * #neg),
 * t is the (k+1)-th highest negative score, so ties at the threshold are never flagged.
 */
export function recallAtFpr(pos: readonly number[], neg: readonly number[], fpr: number): number {
  if (pos.length === 0) return Number.NaN;
  const k = Math.floor(fpr * neg.length + 1e-9);
  if (k >= neg.length) return 1;
  const negDesc = [...neg].sort((a, b) => b - a);
  const t = negDesc[k]!;
  return pos.filter((s) => s > t).length / pos.length;
}

/** Share of pairs where the first (more biased) score is higher; ties count half. */
export function pairwiseRate(pairs: readonly (readonly [number, number])[]): number {
  if (pairs.length === 0) return Number.NaN;
  let s = 0;
  for (const [a, b] of pairs) s += a > b ? 1 : a === b ? 0.5 : 0;
  return s / pairs.length;
}

/** `${name}_auc` and `${name}_r5` (recall at 5% FPR) for one source. */
export function metricsSummary(name: string, pos: readonly number[], neg: readonly number[]): Record<string, number> {
  return { [`${name}_auc`]: rocAuc(pos, neg), [`${name}_r5`]: recallAtFpr(pos, neg, 0.05) };
}
