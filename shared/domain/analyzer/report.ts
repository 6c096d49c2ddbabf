// Report assembly: merges findings into the FR-BIAS-4.3.2 BiasReport. Per-metric scores, one calibrated
// P(biased) from the cross-fitted decision model (decision record 015: logistic regression over the detectors'
// outputs, fitted on out-of-fold scores so the classifier is weighed as it performs on text it never saw), the
// mitigation action with concrete rewrites, and a summary with every finding, spans, detector versions, timings,
// the decision inputs and thresholds.
import type { BiasReport, Finding } from '../../schemas/analysis';
import type { TenantAnalyzerConfig } from '../../schemas/analyzer-config';
import { TAXONOMY_KEYS } from '../taxonomy';
import { AXIS_KEYS, type AxisPredictor } from './classifier/axes';
import decisionJson from './decision.json';
import type { PreparedText } from './detector';
import type { CouncilReport } from './detectors/council';
import type { LanguageCoverage } from './language-coverage';
import { AXES } from './groups';
import { noisyOr, round4 } from './text';

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

/** Toxicity finding score at which a response is blocked (BLOCK_RESPONSE) and always flagged. */
export const BLOCKING_TOXICITY = 0.85;

const METRIC_OF: Record<string, string> = {
  language: 'language_score',
  stereotype: 'stereotype_score',
  toxicity: 'toxicity_score',
  sentiment_disparity: 'sentiment_disparity_score',
  domain_rules: 'domain_rule_score',
  classifier: 'classifier_score',
  council_disagreement: 'council_coverage_variance',
};

/** Inputs of the decision model, all roughly in [-2, 2]. Rule detectors enter with their strongest finding; the
 * classifier with logit/5 of its whole-response and best-sentence scores (clipped at 1e-4), so that its confident
 * scores can outweigh the rules and its middling ones stay near 0. */
export const DECISION_FEATURES = [
  'stereotype_max',
  'language_max',
  'toxicity_max',
  'sentiment_max',
  'domain_rule_max',
  'rule_evidence',
  'rule_count',
  'classifier_whole_logit',
  'classifier_top_logit',
] as const;
export type DecisionFeature = (typeof DECISION_FEATURES)[number];
export const RULE_FEATURES: readonly DecisionFeature[] = DECISION_FEATURES.filter((f) => !f.startsWith('classifier_'));

export interface LogisticModel {
  features: readonly string[];
  weights: number[];
  bias: number;
}

/** decision.json, written by `npm run eval -- --fit-decision` from `npm run crossfit`'s out-of-fold rows. */
export interface DecisionModel {
  method: 'cross-fitted-logistic';
  /** used when the classifier ran */
  with_classifier: LogisticModel;
  /** used when the classifier is disabled for the tenant or unavailable */
  rules_only: LogisticModel;
  fitted_on: string;
  [k: string]: unknown;
}
export const DEFAULT_DECISION: DecisionModel = decisionJson as unknown as DecisionModel;

const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));
const logit5 = (p: number) => {
  const q = Math.min(1 - 1e-4, Math.max(1e-4, p));
  return Math.log(q / (1 - q)) / 5;
};

export function decisionFeatures(run: DetectorRun, maxBy: Record<string, number>, allMax: Record<string, number>, evidenceCount: number): Record<DecisionFeature, number> {
  const ruleEvidence = noisyOr(Object.entries(maxBy).filter(([d]) => d !== 'classifier' && d !== 'council_disagreement').map(([, v]) => v));
  const whole = run.metrics.classifier_whole ?? run.metrics.classifier_score ?? 0;
  const top = run.metrics.classifier_top ?? run.metrics.classifier_score ?? 0;
  return {
    stereotype_max: allMax.stereotype ?? 0,
    language_max: allMax.language ?? 0,
    toxicity_max: allMax.toxicity ?? 0,
    sentiment_max: allMax.sentiment_disparity ?? 0,
    domain_rule_max: allMax.domain_rules ?? 0,
    rule_evidence: ruleEvidence,
    rule_count: Math.min(1, Math.log1p(evidenceCount) / Math.log(11)),
    classifier_whole_logit: logit5(whole),
    classifier_top_logit: logit5(top),
  };
}

/** P(biased) of a logistic model; features it does not name are ignored, missing ones count as 0. */
export function predict(x: Readonly<Record<string, number>>, m: LogisticModel): number {
  let z = m.bias;
  for (let i = 0; i < m.features.length; i++) z += m.weights[i]! * (x[m.features[i]!] ?? 0);
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
  decision: DecisionModel;
  /** names the axis when a detected response's evidence names none (decision record 017) */
  axes?: AxisPredictor | null;
  queryFindings: Finding[];
  /** the response's language; undefined = assumed English (decision record 022) */
  coverage?: LanguageCoverage;
  prepareMs: number;
  totalMs: number;
  analyzerVersion: string;
}

export function assembleReport(input: AssembleInput): BiasReport {
  const { run, config, decision } = input;
  const thresholds: Record<string, number> = { ...DEFAULT_DETECTOR_THRESHOLDS, ...config.detector_thresholds };
  const evidence = run.findings.filter((f) => f.score >= (thresholds[f.detector] ?? 0.3));
  const maxBy: Record<string, number> = {};
  for (const f of evidence) maxBy[f.detector] = Math.max(maxBy[f.detector] ?? 0, f.score);
  const allMax: Record<string, number> = {};
  for (const f of run.findings) allMax[f.detector] = Math.max(allMax[f.detector] ?? 0, f.score);

  const classifierScore = run.metrics.classifier_score;
  const ruleCount = evidence.filter((f) => f.detector !== 'classifier' && f.detector !== 'council_disagreement').length;
  // One calibrated P(biased) decides bias_detected, confidence and the mitigation, and ranks (overall_score).
  const x = decisionFeatures(run, maxBy, allMax, ruleCount);
  const model = classifierScore === undefined ? decision.rules_only : decision.with_classifier;
  const p = predict(x, model);
  // Hostility at the blocking level always flags: the fixtures the model is fitted on hold none, so the data
  // cannot weigh it, and a response we would block must not be reported as unbiased.
  const blockingToxicity = (maxBy.toxicity ?? 0) >= BLOCKING_TOXICITY;
  // Without the classifier, a response no rule finding counts against gets the rules-only model's intercept, which
  // says nothing about it: it must not flag, whatever the threshold.
  const detected = (p >= config.detection_threshold && (classifierScore !== undefined || ruleCount > 0)) || blockingToxicity;
  const overall = p;

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
  let axisInference: { axis: string; p: number }[] | undefined;
  if (detected) {
    for (const f of evidence) for (const t of f.bias_type) if (TAXONOMY_KEYS.has(t)) typeScore.set(t, Math.max(typeScore.get(t) ?? 0, f.score));
    // Learned detections often rest on proxies (a postcode, a name, "family commitments") that no group mention
    // names: the axis models say whom the response is about, each scored P × the model's probability.
    if (input.axes && classifierScore !== undefined && ![...typeScore.keys()].some((t) => (AXIS_KEYS as readonly string[]).includes(t))) {
      axisInference = input.axes.predict(input.doc.text);
      for (const a of axisInference) typeScore.set(a.axis, round4(p * a.p));
      // a named group needs a kind of bias beside it; the domain key is one on its own
      if (axisInference.some((a) => (AXES as readonly string[]).includes(a.axis)) && [...typeScore.keys()].every((t) => (AXIS_KEYS as readonly string[]).includes(t))) typeScore.set('stereotype', p);
    }
    if (typeScore.size === 0) typeScore.set('stereotype', p);
  }
  const bias_type = [...typeScore.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);

  // Outside the detectors' languages a low P(biased) means "not understood", not "clean" (decision record 022).
  const unsupportedLanguage = input.coverage !== undefined && !input.coverage.supported;
  const confidence = round4(detected ? p : unsupportedLanguage ? Math.min(0.5, 1 - p) : 1 - p);
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
    if (blockingToxicity) {
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
  } else if (unsupportedLanguage && config.review_unsupported_language) {
    type = 'HUMAN_REVIEW';
    details = `The response appears to be in ${languageName(input.coverage!.language)}; the detectors and the classifier cover English only, so no bias was found but none can be ruled out. Route it to a reviewer who reads the language. ${describe(run.findings.slice(0, 3))}`;
  } else if (p >= config.review_confidence_floor && (classifierScore !== undefined || run.findings.length > 0)) {
    // Without the classifier and without a finding the rules-only model returns its intercept, which says nothing
    // about this response: a reviewer would have nothing to look at.
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
      rule_evidence: round4(x.rule_evidence),
      decision_features: Object.fromEntries(DECISION_FEATURES.map((k) => [k, round4(x[k])])),
      thresholds: { detection_threshold: config.detection_threshold, review_confidence_floor: config.review_confidence_floor, detector_thresholds: thresholds },
      decision_model: { method: decision.method, model: classifierScore === undefined ? 'rules_only' : 'with_classifier', fitted_on: decision.fitted_on, ...(blockingToxicity && p < config.detection_threshold ? { override: 'blocking_toxicity' } : {}) },
      ...(axisInference ? { axis_inference: { version: input.axes!.version, axes: axisInference } } : {}),
      findings: findings.map((f) => ({ ...f, counted: f.score >= (thresholds[f.detector] ?? 0.3) })),
      metric_of_detector: METRIC_OF,
      detector_versions: run.versions,
      timings_ms,
      ...(input.coverage ? { language: input.coverage } : {}),
      text_length: input.doc.text.length,
      sentences: input.doc.sentences.length,
      ...(run.council ? { council: run.council } : {}),
    },
  };
}

const LANGUAGE_NAMES: Record<string, string> = { por: 'Portuguese', spa: 'Spanish', fra: 'French', deu: 'German', ita: 'Italian', nld: 'Dutch', pol: 'Polish', tur: 'Turkish', ind: 'Indonesian', vie: 'Vietnamese', arb: 'Arabic', cmn: 'Chinese', jpn: 'Japanese', kor: 'Korean', hin: 'Hindi', rus: 'Russian', ukr: 'Ukrainian', swe: 'Swedish', ron: 'Romanian' };
const languageName = (code: string) => LANGUAGE_NAMES[code] ?? `another language (${code})`;
