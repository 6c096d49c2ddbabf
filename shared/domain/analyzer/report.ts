// Report assembly: merges findings into the FR-BIAS-4.3.2 BiasReport. Per-metric scores, a raw evidence
// score (noisy-OR of the per-detector maxima), a calibrated probability (Platt scaling fitted on the fixture
// dev split, parameters in calibration.json; decision record 011), the mitigation action with concrete
// rewrites, and a summary with every finding, spans, detector versions, timings and thresholds.
import type { BiasReport, Finding } from '../../schemas/analysis';
import type { TenantAnalyzerConfig } from '../../schemas/analyzer-config';
import { TAXONOMY_KEYS } from '../taxonomy';
import calibrationJson from './calibration.json';
import fusionJson from './fusion.json';
import type { PreparedText } from './detector';
import type { CouncilReport } from './detectors/council';
import { clamp01, noisyOr, round4 } from './text';

export interface Calibration {
  method: 'platt';
  /** p = sigmoid(a * logit(raw) + b) */
  a: number;
  b: number;
  /** Weight of the learned classifier's score in the raw evidence score. */
  classifier_weight: number;
  /** The classifier's score counts only above this floor (rescaled to [0, 1] above it). */
  classifier_floor: number;
  /** Small continuous share of the classifier score in every raw score, so texts without findings are still
   * ranked by the classifier (AUC, pairwise comparisons) without it deciding on its own. */
  classifier_prior_weight?: number;
  fitted_on: string;
  n: number;
}
export const DEFAULT_CALIBRATION: Calibration = calibrationJson as Calibration;

/** Minimum finding score for a finding to count as evidence, per detector (tenant config overrides). */
export const DEFAULT_DETECTOR_THRESHOLDS: Record<string, number> = {
  language: 0.3,
  stereotype: 0.3,
  toxicity: 0.3,
  sentiment_disparity: 0.3,
  domain_rules: 0.3,
  classifier: 0.5,
  council_disagreement: 1.01, // diagnostic only: never evidence
};

const METRIC_OF: Record<string, string> = {
  language: 'language_score',
  stereotype: 'stereotype_score',
  toxicity: 'toxicity_score',
  sentiment_disparity: 'sentiment_disparity_score',
  domain_rules: 'domain_rule_score',
  classifier: 'classifier_score',
  council_disagreement: 'council_coverage_variance',
};

const logit = (p: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function calibrate(raw: number, c: Calibration): number {
  return clamp01(sigmoid(c.a * logit(raw) + c.b));
}

/** The uncalibrated evidence score in [0, 1]: noisy-OR of each evidence detector's strongest finding. */
export function rawScore(maxByDetector: Record<string, number>, classifierScore: number | undefined, c: Calibration, classifierThreshold = 0): number {
  const parts = Object.entries(maxByDetector)
    .filter(([d]) => d !== 'classifier' && d !== 'council_disagreement')
    .map(([, s]) => s);
  if (classifierScore !== undefined && classifierScore >= classifierThreshold && classifierScore > c.classifier_floor) {
    parts.push(c.classifier_weight * ((classifierScore - c.classifier_floor) / (1 - c.classifier_floor)));
  }
  const prior = c.classifier_prior_weight ?? 0;
  return (1 - prior) * noisyOr(parts) + prior * (classifierScore ?? 0);
}

/** Score fusion (decision record 013): a logistic-regression stacker over detector outputs, fitted on train
 * splits only (`npm run eval -- --fit-fusion`), weights in fusion.json. Its output is the raw score that the
 * Platt calibration (fitted afterwards on the fixture dev split) turns into P(biased). */
export interface Fusion {
  method: 'logistic-stacker';
  features: readonly string[];
  weights: number[];
  bias: number;
  fitted_on: string;
  /** Platt scaling of the fused score, fitted on the fixture dev split: P = sigmoid(a·logit(fused) + b). */
  platt?: { a: number; b: number; n: number };
  [k: string]: unknown;
}
export const DEFAULT_FUSION: Fusion | null = (fusionJson as { weights?: unknown }).weights ? (fusionJson as unknown as Fusion) : null;

export const FUSION_FEATURES = [
  'stereotype_max',
  'language_max',
  'toxicity_max',
  'sentiment_max',
  'domain_rule_max',
  'classifier_top',
  'classifier_whole',
  'rule_evidence',
  'rule_count',
] as const;

/** Inputs of the stacker, all in [0, 1]. `rule_evidence` is the noisy-OR of the counted rule findings
 * (stereotype, language, toxicity, sentiment, domain rules), i.e. the pre-fusion evidence score without the classifier. */
export function fusionFeatures(run: DetectorRun, maxBy: Record<string, number>, allMax: Record<string, number>, evidenceCount: number): number[] {
  const ruleEvidence = noisyOr(Object.entries(maxBy).filter(([d]) => d !== 'classifier' && d !== 'council_disagreement').map(([, v]) => v));
  const top = run.metrics.classifier_top ?? run.metrics.classifier_score ?? 0;
  const whole = run.metrics.classifier_whole ?? run.metrics.classifier_score ?? 0;
  return [
    allMax.stereotype ?? 0,
    allMax.language ?? 0,
    allMax.toxicity ?? 0,
    allMax.sentiment_disparity ?? 0,
    allMax.domain_rules ?? 0,
    top,
    whole,
    ruleEvidence,
    Math.min(1, Math.log1p(evidenceCount) / Math.log(11)),
  ];
}

export function fuse(x: readonly number[], f: Fusion): number {
  let z = f.bias;
  for (let i = 0; i < x.length; i++) z += (f.weights[i] ?? 0) * x[i]!;
  return sigmoid(z);
}

export interface DetectorRun {
  findings: Finding[];
  versions: Record<string, string>;
  timings: Record<string, number>;
  metrics: { classifier_score?: number; classifier_whole?: number; classifier_top?: number; sentiment_divergence?: number };
  council: CouncilReport | null;
}

export interface Rewrite {
  span: { start: number; end: number };
  from: string;
  to: string;
}

function rewritesOf(findings: Finding[]): Rewrite[] {
  const out: Rewrite[] = [];
  const taken: [number, number][] = [];
  for (const f of findings) {
    if (!f.suggestion || f.suggestion.length > 40) continue;
    if (f.detector !== 'language' && f.detector !== 'stereotype') continue;
    const s = f.spans[0];
    if (!s || s.end - s.start > 40) continue;
    if (taken.some(([a, b]) => s.start < b && a < s.end)) continue;
    taken.push([s.start, s.end]);
    out.push({ span: { start: s.start, end: s.end }, from: s.text, to: f.suggestion });
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

export interface AssembleInput {
  doc: PreparedText;
  run: DetectorRun;
  config: TenantAnalyzerConfig;
  calibration: Calibration;
  /** null: the pre-fusion noisy-OR evidence score (decision record 011) is the raw score. */
  fusion?: Fusion | null;
  queryFindings: Finding[];
  prepareMs: number;
  totalMs: number;
  analyzerVersion: string;
}

export function assembleReport(input: AssembleInput): BiasReport {
  const { run, config, calibration } = input;
  const thresholds: Record<string, number> = { ...DEFAULT_DETECTOR_THRESHOLDS, ...config.detector_thresholds };
  const evidence = run.findings.filter((f) => f.score >= (thresholds[f.detector] ?? 0.3));
  const maxBy: Record<string, number> = {};
  for (const f of evidence) maxBy[f.detector] = Math.max(maxBy[f.detector] ?? 0, f.score);
  const allMax: Record<string, number> = {};
  for (const f of run.findings) allMax[f.detector] = Math.max(allMax[f.detector] ?? 0, f.score);

  const classifierScore = run.metrics.classifier_score;
  const fusion = input.fusion === undefined ? DEFAULT_FUSION : input.fusion;
  const ruleCount = evidence.filter((f) => f.detector !== 'classifier' && f.detector !== 'council_disagreement').length;
  const fusionX = fusion ? fusionFeatures(run, maxBy, allMax, ruleCount) : null;
  // Decision path (decision record 011): rule evidence + a small classifier share, Platt-calibrated. It decides
  // bias_detected, confidence and the mitigation, so a strong explicit rule finding flags and the classifier alone cannot.
  const raw = rawScore(maxBy, classifierScore, calibration, thresholds.classifier ?? 0.5);
  const p = raw === 0 && classifierScore === undefined ? calibrate(0, calibration) : calibrate(raw, calibration);
  const detected = p >= config.detection_threshold;
  // Ranking path (decision record 013): the stacker's fused score, Platt-calibrated, is overall_score.
  const fusedRaw = fusion && fusionX ? fuse(fusionX, fusion) : null;
  const overall = fusedRaw !== null && fusion?.platt ? calibrate(fusedRaw, { ...calibration, a: fusion.platt.a, b: fusion.platt.b }) : (fusedRaw ?? p);

  // bias_score: one entry per metric (0 when nothing fired), plus the overall probability.
  const bias_score: Record<string, number> = {
    stereotype_score: round4(allMax.stereotype ?? 0),
    language_score: round4(allMax.language ?? 0),
    toxicity_score: round4(allMax.toxicity ?? 0),
    sentiment_divergence: round4(run.metrics.sentiment_divergence ?? 0),
    domain_rule_score: round4(allMax.domain_rules ?? 0),
  };
  if (classifierScore !== undefined) bias_score.classifier_score = round4(classifierScore);
  if (run.council) bias_score.council_coverage_variance = round4(run.council.axes[0]?.coverage_variance ?? 0);
  bias_score.overall = round4(overall);

  // bias_type: taxonomy keys of the evidence, strongest first; axis keys before mechanism keys.
  const typeScore = new Map<string, number>();
  if (detected) {
    for (const f of evidence) for (const t of f.bias_type) if (TAXONOMY_KEYS.has(t)) typeScore.set(t, Math.max(typeScore.get(t) ?? 0, f.score));
    if (typeScore.size === 0) typeScore.set('stereotype', p);
  }
  const bias_type = [...typeScore.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);

  const confidence = round4(detected ? p : 1 - p);
  const rewrites = detected ? rewritesOf([...evidence].sort((a, b) => b.score - a.score)) : rewritesOf(run.findings.filter((f) => f.detector === 'language' && f.score >= 0.3));

  // mitigation_action
  const top = [...evidence].sort((a, b) => b.score - a.score);
  const promptAsked = input.queryFindings.some((f) => f.score >= 0.6);
  let type: BiasReport['mitigation_action']['type'] = 'NONE';
  let details = 'No bias found.';
  const describe = (fs: Finding[]) =>
    fs
      .slice(0, 4)
      .map((f) => `${f.detector}: ${f.explanation}${f.spans[0] ? ` [${f.spans[0].start}-${f.spans[0].end}]` : ''}`)
      .join(' ');
  if (detected) {
    if ((maxBy.toxicity ?? 0) >= 0.85) {
      type = 'BLOCK_RESPONSE';
      details = `Hostile or demeaning content; do not show this response. ${describe(top.filter((f) => f.detector === 'toxicity'))}`;
    } else if (promptAsked) {
      type = 'REPHRASE_PROMPT';
      details = `The prompt itself asks for or presupposes a group generalisation; rephrase it around individual, job-related criteria. ${describe(top)}`;
    } else if (p < config.detection_threshold + 0.15 || top.every((f) => f.detector === 'domain_rules' || f.detector === 'sentiment_disparity' || f.detector === 'classifier')) {
      type = 'HUMAN_REVIEW';
      details = `Possible bias that needs a reviewer's judgement. ${describe(top)}`;
    } else {
      type = 'REPHRASE_RESPONSE';
      details = `Rephrase the flagged passages${rewrites.length ? ` (${rewrites.map((r) => `"${r.from}" → "${r.to}"`).join(', ')})` : ''}. ${describe(top)}`;
    }
  } else if (p >= config.review_confidence_floor) {
    type = 'HUMAN_REVIEW';
    details = `Below the detection threshold but not clearly clean (P(biased)=${round4(p)}); a reviewer may want to look. ${describe(run.findings.slice(0, 3))}`;
  } else if (rewrites.length) {
    details = `No bias found; optional wording suggestions: ${rewrites.map((r) => `"${r.from}" → "${r.to}"`).join(', ')}.`;
  }

  const findings = [...run.findings].sort((a, b) => (a.spans[0]?.start ?? -1) - (b.spans[0]?.start ?? -1));
  const timings_ms: Record<string, number> = { prepare: input.prepareMs, ...run.timings, total: input.totalMs };
  return {
    bias_detected: detected,
    bias_type,
    bias_score,
    confidence,
    mitigation_action: { type, details: details.trim().slice(0, 2000), rewrites },
    bias_report_summary: {
      analyzer_version: input.analyzerVersion,
      overall_score: round4(overall),
      decision_score: round4(p),
      raw_score: round4(raw),
      ...(fusedRaw !== null ? { fused_raw_score: round4(fusedRaw) } : {}),
      ...(fusionX ? { fusion_features: Object.fromEntries(FUSION_FEATURES.map((k, i) => [k, round4(fusionX[i]!)])) } : {}),
      thresholds: { detection_threshold: config.detection_threshold, review_confidence_floor: config.review_confidence_floor, detector_thresholds: thresholds },
      calibration: { method: calibration.method, a: calibration.a, b: calibration.b, fitted_on: calibration.fitted_on },
      findings: findings.map((f) => ({ ...f, counted: f.score >= (thresholds[f.detector] ?? 0.3) })),
      metric_of_detector: METRIC_OF,
      detector_versions: run.versions,
      timings_ms,
      text_length: input.doc.text.length,
      sentences: input.doc.sentences.length,
      ...(run.council ? { council: run.council } : {}),
    },
  };
}
