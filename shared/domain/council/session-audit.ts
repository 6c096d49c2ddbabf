// Per-session council audit (ADR-015), with the statistics fixed: t-based p-values, sample SDs, characters.
import type { BiasAuditResult, CouncilSessionInput } from '../../schemas/council';
import { correlationPValue, mean, median, momentsOf, pearson, populationVariance, sampleSd } from '../stats';
import { derivePositionMapping, labelModels } from './position';
import { lengthChars } from './scores';

export interface AuditThresholds {
  /** |r| above this (and p < 0.05) flags length bias. ADR-015 default 0.3. */
  lengthCorrelation: number;
  /** Population variance of position means (raw scale) above this flags position bias. ADR-015 default 0.5. */
  positionVariance: number;
}
export const DEFAULT_THRESHOLDS: AuditThresholds = { lengthCorrelation: 0.3, positionVariance: 0.5 };

export interface ScoreCell {
  reviewer: string;
  model: string;
  score: number;
  self: boolean;
}

/** Flattens stage 2 into (reviewer, candidate model, score); candidate keys may be labels or model ids. */
export function scoreCells(input: Pick<CouncilSessionInput, 'stage2' | 'label_to_model'>): ScoreCell[] {
  const byLabel = labelModels(input.label_to_model);
  const cells: ScoreCell[] = [];
  for (const [reviewer, scores] of Object.entries(input.stage2)) {
    for (const [candidate, score] of Object.entries(scores)) {
      const model = byLabel[candidate] ?? candidate;
      cells.push({ reviewer, model, score, self: reviewer === model });
    }
  }
  return cells;
}

const round = (v: number | null, digits: number) => (v === null ? null : Number(v.toFixed(digits)));

export function runSessionAudit(input: CouncilSessionInput, thresholds: AuditThresholds = DEFAULT_THRESHOLDS): BiasAuditResult {
  const cells = scoreCells(input);
  const peer = cells.filter((c) => !c.self);
  const self = cells.filter((c) => c.self);

  // Length: characters of each candidate's stage-1 response vs the mean of its peer scores.
  const lengths = new Map(input.stage1.map((r) => [r.model, lengthChars(r.response)]));
  const peerScores = new Map<string, number[]>();
  for (const c of peer) (peerScores.get(c.model) ?? peerScores.set(c.model, []).get(c.model)!).push(c.score);
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [model, scores] of peerScores) {
    const len = lengths.get(model);
    if (len === undefined) continue;
    xs.push(len);
    ys.push(mean(scores)!);
  }
  const r = xs.length >= 3 ? pearson(xs, ys) : null;
  const p = r === null ? null : correlationPValue(r, xs.length);
  const lengthBias = r !== null && p !== null && Math.abs(r) > thresholds.lengthCorrelation && p < 0.05;

  // Position: population variance of the per-position means of peer scores (ADR-015 definition).
  const positions = derivePositionMapping(input.label_to_model);
  const byPosition = new Map<number, number[]>();
  for (const c of peer) {
    const pos = positions[c.model];
    if (pos !== undefined) (byPosition.get(pos) ?? byPosition.set(pos, []).get(pos)!).push(c.score);
  }
  const positionMeans = [...byPosition.entries()].sort((a, b) => a[0] - b[0]).map(([position, s]) => ({ position, mean: mean(s)!, n: s.length }));
  const positionVariance = positionMeans.length >= 2 ? populationVariance(momentsOf(positionMeans.map((p) => p.mean))) : null;
  const positionBias = positionVariance === null ? null : positionVariance > thresholds.positionVariance;

  // Reviewer calibration: mean and sample SD of each reviewer's peer scores; harsh/generous outside median ± 1 SD
  // (sample SD) of the reviewer means.
  const byReviewer = new Map<string, number[]>();
  for (const c of peer) (byReviewer.get(c.reviewer) ?? byReviewer.set(c.reviewer, []).get(c.reviewer)!).push(c.score);
  const reviewerMeans: Record<string, number> = {};
  const reviewerSd: Record<string, number | null> = {};
  const reviewerCounts: Record<string, number> = {};
  for (const [reviewer, s] of byReviewer) {
    const m = momentsOf(s);
    reviewerMeans[reviewer] = m.mean;
    reviewerSd[reviewer] = sampleSd(m);
    reviewerCounts[reviewer] = m.n;
  }
  const means = Object.values(reviewerMeans);
  const harsh: string[] = [];
  const generous: string[] = [];
  if (means.length >= 2) {
    const mid = median(means)!;
    const sd = sampleSd(momentsOf(means))!;
    for (const [reviewer, m] of Object.entries(reviewerMeans)) {
      if (m < mid - sd) harsh.push(reviewer);
      else if (m > mid + sd) generous.push(reviewer);
    }
  }

  // Self-votes: excluded above; inflation = mean over self-votes of (self score − mean peer score of that model).
  const diffs = self.flatMap((c) => {
    const peers = peerScores.get(c.model);
    return peers?.length ? [c.score - mean(peers)!] : [];
  });

  const riskFactors = [lengthBias, positionBias === true, harsh.length > 0, generous.length > 0].filter(Boolean).length;
  return {
    session_id: input.session_id,
    length_unit: 'characters',
    length_score_correlation: round(r, 6),
    length_score_p_value: round(p, 8),
    length_n: xs.length,
    length_bias_detected: lengthBias,
    position_score_variance: round(positionVariance, 6),
    position_bias_detected: positionBias,
    position_means: positionMeans,
    reviewer_mean_scores: reviewerMeans,
    reviewer_score_sd: reviewerSd,
    reviewer_counts: reviewerCounts,
    harsh_reviewers: harsh.sort(),
    generous_reviewers: generous.sort(),
    self_votes_excluded: self.length,
    self_vote_inflation: diffs.length ? mean(diffs) : null,
    overall_bias_risk: riskFactors === 0 ? 'low' : riskFactors <= 2 ? 'medium' : 'high',
  };
}
