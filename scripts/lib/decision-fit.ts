// Decision model fit (decision record 015): logistic regression over the analyzer's decision features
// (report.ts DECISION_FEATURES), fitted on OUT-OF-FOLD rows (`npm run crossfit`: each fixture scored by a classifier
// that never trained on it), so the classifier gets the weight it earns on unseen text. Nested cross-validation over
// the same folds gives the review floor and a reference curve. The detection threshold is chosen on the spent
// calibration sets (decision record 021), never on a test split or an unread held-out set.
import type { Analyzer } from '../../shared/domain/analyzer';
import type { BiasReport } from '../../shared/schemas/analysis';
import { TenantAnalyzerConfig } from '../../shared/schemas/analyzer-config';
import { choleskySolve } from '../../shared/domain/stats/cluster';
import { DECISION_FEATURES, predict, RULE_FEATURES, type DecisionFeature, type DecisionModel, type LogisticModel } from '../../shared/domain/analyzer/report';

export interface WeightedRow {
  source: string;
  x: number[];
  y: number;
}

export interface DecisionRow {
  id: string;
  /** 'fixtures' rows set the operating points; public train rows ('toxigen', 'redditbias') only help the fit */
  source: string;
  fold: number;
  y: 0 | 1;
  hard_negative: boolean;
  x: Record<DecisionFeature, number>;
}

export function decisionRow(analyzer: Analyzer, text: string, query: string): Record<DecisionFeature, number> {
  return decisionFeaturesOf(analyzer.analyzeSync({ llm_response: text, original_query: query }));
}

/** A threshold no probability reaches: a response flagged under it is flagged at every threshold (blocking toxicity). */
const NEVER_BY_THRESHOLD = TenantAnalyzerConfig.parse({ detection_threshold: 1 });

/** A calibration response's decision features, and whether it is flagged whatever the threshold, which spends
 * false-positive budget at every threshold (decision record 021). The features do not depend on the threshold. */
export function calibrationRow(analyzer: Analyzer, text: string, query: string): { x: Record<DecisionFeature, number>; forced: boolean } {
  const r = analyzer.analyzeSync({ llm_response: text, original_query: query }, NEVER_BY_THRESHOLD);
  return { x: decisionFeaturesOf(r), forced: r.bias_detected };
}

function decisionFeaturesOf(r: BiasReport): Record<DecisionFeature, number> {
  const f = (r.bias_report_summary as { decision_features?: Record<DecisionFeature, number> }).decision_features;
  if (!f) throw new Error('analyzer did not report decision_features');
  return f;
}

/** Weighted L2-regularised logistic regression by Newton's method (few features, so exact and deterministic). */
export function fitLogistic(rows: WeightedRow[], l2 = 0.01, sourceWeight: Record<string, number> = {}): { weights: number[]; bias: number } {
  const d = rows[0]?.x.length ?? 0;
  const bySource = new Map<string, number>();
  for (const r of rows) bySource.set(r.source, (bySource.get(r.source) ?? 0) + 1);
  // each source's rows sum to (source weight) × (rows / sources): equal total weight per source by default
  const mean = rows.length / bySource.size;
  const wOf = (r: WeightedRow) => ((sourceWeight[r.source] ?? 1) * mean) / bySource.get(r.source)!;
  const beta = new Array<number>(d + 1).fill(0); // [bias, w...]
  for (let it = 0; it < 50; it++) {
    const g = new Array<number>(d + 1).fill(0);
    const n = d + 1;
    const H = new Float64Array(n * n); // row-major
    let total = 0;
    for (const r of rows) {
      const xs = [1, ...r.x];
      let z = 0;
      for (let i = 0; i <= d; i++) z += beta[i]! * xs[i]!;
      const p = 1 / (1 + Math.exp(-z));
      const w = wOf(r);
      total += w;
      for (let i = 0; i <= d; i++) {
        g[i]! += w * (p - r.y) * xs[i]!;
        for (let j = 0; j <= d; j++) H[i * n + j]! += w * p * (1 - p) * xs[i]! * xs[j]!;
      }
    }
    for (let i = 0; i <= d; i++) {
      g[i] = g[i]! / total + (i > 0 ? l2 * beta[i]! : 0);
      for (let j = 0; j <= d; j++) H[i * n + j] = H[i * n + j]! / total + (i === j ? (i > 0 ? l2 : 1e-9) : 0);
    }
    // the regularised Hessian is symmetric positive definite
    const step = choleskySolve(H, g, n);
    if (!step) throw new Error('decision fit: Hessian is not positive definite');
    let maxStep = 0;
    for (let i = 0; i <= d; i++) {
      beta[i] = beta[i]! - step[i]!;
      maxStep = Math.max(maxStep, Math.abs(step[i]!));
    }
    if (maxStep < 1e-9) break;
  }
  return { bias: beta[0]!, weights: beta.slice(1) };
}

/** Total weight per source in the fit (each source's rows share it equally): enterprise text leads, the public
 * sentences keep the score ranking short hostile or stereotyped statements the way the public sets judge them. */
export const SOURCE_WEIGHT: Record<string, number> = { fixtures: 4, toxigen: 1, redditbias: 1 };

export function fitModel(rows: readonly DecisionRow[], features: readonly DecisionFeature[], l2: number): LogisticModel {
  const fit = fitLogistic(rows.map((r) => ({ source: r.source, x: features.map((k) => r.x[k]), y: r.y })), l2, SOURCE_WEIGHT);
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return { features: [...features], weights: fit.weights.map(round), bias: round(fit.bias) };
}

export interface OperatingPoint {
  threshold: number;
  recall: number;
  fpr: number;
  fpr_hard: number;
}

/** Nested cross-validation: for each fold, fit on the other folds and score the held-out one; the pooled held-out
 * scores give honest recall / false-positive rates for every threshold. */
export function nestedScores(rows: readonly DecisionRow[], features: readonly DecisionFeature[], l2: number): { row: DecisionRow; p: number }[] {
  const folds = [...new Set(rows.map((r) => r.fold))].sort((a, b) => a - b);
  const out: { row: DecisionRow; p: number }[] = [];
  for (const k of folds) {
    const m = fitModel(rows.filter((r) => r.fold !== k), features, l2);
    for (const r of rows) if (r.fold === k) out.push({ row: r, p: predict(r.x, m) });
  }
  return out;
}

/** Recall and false-positive rates on the enterprise fixtures only: the product's operating point is about them. */
export function operatingPoints(scored: readonly { row: DecisionRow; p: number }[], thresholds: readonly number[]): OperatingPoint[] {
  const pos = scored.filter((s) => s.row.y === 1 && s.row.source === 'fixtures');
  const neg = scored.filter((s) => s.row.y === 0 && s.row.source === 'fixtures');
  const hard = neg.filter((s) => s.row.hard_negative);
  const share = (xs: typeof scored, t: number) => (xs.length ? xs.filter((s) => s.p >= t).length / xs.length : Number.NaN);
  return thresholds.map((t) => ({ threshold: t, recall: share(pos, t), fpr: share(neg, t), fpr_hard: share(hard, t) }));
}

/** Candidate thresholds, 0.30 to 0.95 in steps of 0.01. */
export const THRESHOLD_GRID = Array.from({ length: 66 }, (_, i) => Math.round((0.3 + i * 0.01) * 100) / 100);
/** The false-positive budget of the default detection threshold (issue 3's product bar). */
export const FPR_BUDGET = 0.03;
/** Share of clean responses a tenant's reviewers should see by default (the review floor below detection). */
export const REVIEW_BUDGET = 0.1;

/** The fitted models, their nested-CV operating curves, and the nested scores behind `curve` (one per row). */
export function fitDecision(
  rows: readonly DecisionRow[],
  l2: number,
  meta: Record<string, unknown>,
): { model: DecisionModel; curve: OperatingPoint[]; rulesCurve: OperatingPoint[]; nested: { row: DecisionRow; p: number }[] } {
  const nested = nestedScores(rows, DECISION_FEATURES, l2);
  const curve = operatingPoints(nested, THRESHOLD_GRID);
  // rules-only flags nothing without a counted rule finding (assembleReport)
  const rulesCurve = operatingPoints(nestedScores(rows, RULE_FEATURES, l2).map((s) => (s.row.x.rule_count > 0 ? s : { ...s, p: 0 })), THRESHOLD_GRID);
  const chosen = curve.find((c) => c.fpr <= FPR_BUDGET) ?? curve.at(-1)!;
  const review = curve.find((c) => c.fpr <= REVIEW_BUDGET) ?? chosen;
  const model: DecisionModel = {
    method: 'cross-fitted-logistic',
    with_classifier: fitModel(rows, DECISION_FEATURES, l2),
    rules_only: fitModel(rows, RULE_FEATURES, l2),
    fitted_on: `out-of-fold detector outputs (${new Set(rows.map((r) => r.fold)).size}-fold cross-fitting; decision records 015 and 016) of ${Object.entries(countBy(rows)).map(([s, n]) => `${n} ${s}`).join(', ')} rows; total weight per source ${JSON.stringify(SOURCE_WEIGHT)}`,
    l2,
    n: countBy(rows),
    operating_point: { detection_threshold: chosen.threshold, fpr_budget: FPR_BUDGET, nested_cv: chosen },
    review_point: { review_confidence_floor: review.threshold, fpr_budget: REVIEW_BUDGET, nested_cv: review },
    ...meta,
  };
  return { model, curve, rulesCurve, nested };
}

/** One response of a calibration set: label, decision probability, and whether an override flags it at any threshold. */
export interface CalibrationScore {
  y: 0 | 1;
  p: number;
  forced: boolean;
}

export interface CalibratedPoint {
  threshold: number;
  recall: number;
  fpr: number;
  /** binomial standard error of fpr */
  fpr_se: number;
  positives: number;
  negatives: number;
}

/**
 * The lowest threshold whose false-positive rate on the calibration responses stays within the budget by one
 * standard error (fpr + se <= budget): the most recall the budget allows, with a margin for the noise of a few
 * hundred negatives. Falls back to the highest grid threshold when none qualifies.
 */
export function calibratedThreshold(scores: readonly CalibrationScore[], grid: readonly number[], budget: number): { chosen: CalibratedPoint; curve: CalibratedPoint[] } {
  const pos = scores.filter((s) => s.y === 1);
  const neg = scores.filter((s) => s.y === 0);
  if (!pos.length || !neg.length) throw new Error('calibration needs both biased and unbiased responses');
  const flags = (s: CalibrationScore, t: number) => s.forced || s.p >= t;
  const curve = [...grid]
    .sort((a, b) => a - b)
    .map((t) => {
      const { fpr, fpr_se } = fprAt(neg, t, flags);
      return { threshold: t, recall: pos.filter((s) => flags(s, t)).length / pos.length, fpr, fpr_se, positives: pos.length, negatives: neg.length };
    });
  return { chosen: withinBudget(curve, budget), curve };
}

/** A clean-only set's false-positive rate per threshold, with its binomial standard error. */
export interface CleanPoint {
  threshold: number;
  fpr: number;
  fpr_se: number;
  negatives: number;
}

/**
 * The lowest threshold at which clean-only responses (ordinary traffic, decision record 028) stay within the budget by
 * one standard error, as `calibratedThreshold` does for the held-out sets; the highest grid threshold when none does.
 */
export function cleanThreshold(scores: readonly number[], grid: readonly number[], budget: number): { chosen: CleanPoint; curve: CleanPoint[] } {
  if (!scores.length) throw new Error('cleanThreshold needs clean responses');
  const curve = [...grid].sort((a, b) => a - b).map((t) => fprAt(scores, t, (p, at) => p >= at));
  return { chosen: withinBudget(curve, budget), curve };
}

/** The share of clean responses flagged at threshold t, with its binomial standard error. */
function fprAt<T>(negatives: readonly T[], t: number, flags: (x: T, t: number) => boolean): CleanPoint {
  const fpr = negatives.filter((x) => flags(x, t)).length / negatives.length;
  return { threshold: t, fpr, fpr_se: Math.sqrt((fpr * (1 - fpr)) / negatives.length), negatives: negatives.length };
}

/** The one threshold rule of both calibrations: the lowest point with FPR + one standard error within the budget,
 * else the highest. */
function withinBudget<P extends { fpr: number; fpr_se: number }>(curve: readonly P[], budget: number): P {
  return curve.find((c) => c.fpr + c.fpr_se <= budget) ?? curve.at(-1)!;
}

function countBy(rows: readonly DecisionRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) out[r.source] = (out[r.source] ?? 0) + 1;
  return out;
}
