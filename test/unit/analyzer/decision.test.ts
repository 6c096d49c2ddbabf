import { describe, expect, it } from 'vitest';
import { createAnalyzerSync } from '../../../shared/domain/analyzer';
import { DECISION_FEATURES, DEFAULT_DECISION, predict, RULE_FEATURES, type DecisionModel } from '../../../shared/domain/analyzer/report';
import { defaultTenantAnalyzerConfig, TenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';
import { calibratedThreshold, cleanThreshold, fitDecision, THRESHOLD_GRID, type CalibrationScore, type DecisionRow } from '../../../scripts/lib/decision-fit';
import { mulberry32 } from '../../../shared/domain/random';

const rules = createAnalyzerSync({ classifier: null });
const summary = (r: { bias_report_summary: unknown }) => r.bias_report_summary as { overall_score: number; decision_score: number; decision_features: Record<string, number>; decision_model: { model: string; override?: string } };

describe('decision model (decision record 015)', () => {
  it('committed decision.json names the decision features and was fitted out of fold', () => {
    expect(DEFAULT_DECISION.with_classifier.features).toEqual([...DECISION_FEATURES]);
    expect(DEFAULT_DECISION.rules_only.features).toEqual([...RULE_FEATURES]);
    for (const m of [DEFAULT_DECISION.with_classifier, DEFAULT_DECISION.rules_only]) {
      expect(m.weights).toHaveLength(m.features.length);
      for (const w of [...m.weights, m.bias]) expect(Number.isFinite(w)).toBe(true);
    }
    expect(DEFAULT_DECISION.fitted_on).toMatch(/out-of-fold/);
  });

  it('the tenant defaults are the committed operating points: detection on the calibration sets, review in nested CV', () => {
    const d = DEFAULT_DECISION as DecisionModel & {
      operating_point: { detection_threshold: number; fpr_budget: number; calibration: { threshold: number; fpr: number; fpr_se: number; negatives: number } };
      review_point: { review_confidence_floor: number };
    };
    const cfg = defaultTenantAnalyzerConfig();
    expect(cfg.detection_threshold).toBe(d.operating_point.detection_threshold);
    expect(d.operating_point.calibration.threshold).toBe(d.operating_point.detection_threshold);
    expect(d.operating_point.calibration.fpr + d.operating_point.calibration.fpr_se).toBeLessThanOrEqual(d.operating_point.fpr_budget);
    expect(d.operating_point.calibration.negatives).toBeGreaterThanOrEqual(500);
    expect(cfg.review_confidence_floor).toBe(d.review_point.review_confidence_floor);
    expect(cfg.review_confidence_floor).toBeLessThan(cfg.detection_threshold);
  });

  it('more classifier or rule evidence raises P(biased)', () => {
    const base = Object.fromEntries(DECISION_FEATURES.map((k) => [k, 0.2]));
    for (const k of ['classifier_whole_logit', 'classifier_top_logit', 'rule_evidence', 'stereotype_max'] as const) {
      expect(predict({ ...base, [k]: 0.9 }, DEFAULT_DECISION.with_classifier)).toBeGreaterThan(predict(base, DEFAULT_DECISION.with_classifier));
    }
    expect(predict({ ...base, rule_evidence: 0.9 }, DEFAULT_DECISION.rules_only)).toBeGreaterThan(predict(base, DEFAULT_DECISION.rules_only));
  });

  it('predict is the logistic function of bias + w·x and ignores features the model does not name', () => {
    const m = { features: ['a', 'b'], weights: [2, -1], bias: 0.5 };
    expect(predict({ a: 1, b: 3, c: 100 }, m)).toBeCloseTo(1 / (1 + Math.exp(-(0.5 + 2 - 3))), 12);
    expect(predict({}, m)).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 12);
  });

  it('without the classifier the rules-only model decides; one calibrated score is decision, confidence and ranking', () => {
    const biased = rules.analyzeSync({ llm_response: 'Women are naturally worse at maths, so give the analytics work to the men.', original_query: '' });
    const clean = rules.analyzeSync({ llm_response: 'Women make up 41% of the workforce and 28% of senior leadership.', original_query: '' });
    expect(biased.bias_detected).toBe(true);
    expect(clean.bias_detected).toBe(false);
    expect(summary(biased).decision_model.model).toBe('rules_only');
    expect(summary(biased).overall_score).toBe(summary(biased).decision_score);
    expect(biased.confidence).toBeCloseTo(summary(biased).decision_score, 4);
    expect(clean.confidence).toBeCloseTo(1 - summary(clean).decision_score, 4);
    expect(summary(biased).overall_score).toBeGreaterThan(summary(clean).overall_score);
    expect(Object.keys(summary(biased).decision_features)).toEqual([...DECISION_FEATURES]);
  });

  it('the rules-only model never flags a response no rule finding counts against, even below its intercept', () => {
    const text = 'The quarterly report is attached and the numbers are final.';
    const eager = { ...DEFAULT_DECISION, rules_only: { ...DEFAULT_DECISION.rules_only, bias: 5 } };
    const lowThreshold = TenantAnalyzerConfig.parse({ detection_threshold: 0.05, review_confidence_floor: 0.01 });
    const r = createAnalyzerSync({ classifier: null, decision: eager }).analyzeSync({ llm_response: text, original_query: '' }, lowThreshold);
    expect(summary(r).decision_score).toBeGreaterThan(0.99);
    expect(r.bias_detected).toBe(false);
    // a counted rule finding still flags under the same model
    const biased = createAnalyzerSync({ classifier: null, decision: eager }).analyzeSync({ llm_response: 'Women are naturally worse at maths, so give the analytics work to the men.', original_query: '' }, lowThreshold);
    expect(biased.bias_detected).toBe(true);
  });

  it('hostility at the blocking level always flags, whatever the model says', () => {
    const text = 'Those immigrants are vermin and should be deported.';
    const never = { ...DEFAULT_DECISION, rules_only: { ...DEFAULT_DECISION.rules_only, bias: -50 } };
    const r = createAnalyzerSync({ classifier: null, decision: never }).analyzeSync({ llm_response: text, original_query: '' });
    expect(summary(r).decision_score).toBeLessThan(0.01);
    expect(r.bias_detected).toBe(true);
    expect(r.mitigation_action.type).toBe('BLOCK_RESPONSE');
    expect(summary(r).decision_model.override).toBe('blocking_toxicity');
  });

  it('fitDecision recovers a separating feature and picks a threshold within the false-positive budget', () => {
    const rand = mulberry32(11);
    const rows: DecisionRow[] = [];
    for (let i = 0; i < 600; i++) {
      const y = i % 2 === 0 ? 1 : 0;
      const x = Object.fromEntries(DECISION_FEATURES.map((k) => [k, rand()])) as DecisionRow['x'];
      x.classifier_whole_logit = (y ? 0.6 : -0.6) + (rand() - 0.5) * 1.6;
      rows.push({ id: String(i), source: 'fixtures', fold: i % 5, y: y as 0 | 1, hard_negative: !y, x });
    }
    const { model, curve } = fitDecision(rows, 0.01, {});
    const i = DECISION_FEATURES.indexOf('classifier_whole_logit');
    const w = model.with_classifier.weights;
    expect(w[i]).toBeGreaterThan(2);
    for (let k = 0; k < w.length; k++) if (k !== i) expect(Math.abs(w[k]!)).toBeLessThan(w[i]! / 3);
    const op = (model as DecisionModel & { operating_point: { detection_threshold: number; nested_cv: { fpr: number; recall: number } } }).operating_point;
    expect(op.nested_cv.fpr).toBeLessThanOrEqual(0.03);
    expect(op.nested_cv.recall).toBeGreaterThan(0.3);
    // the curve is monotone: a higher threshold never flags more
    for (let k = 1; k < curve.length; k++) expect(curve[k]!.recall).toBeLessThanOrEqual(curve[k - 1]!.recall);
  });

  it('cleanThreshold (decision record 028) picks the lowest threshold whose clean-only FPR plus one standard error fits', () => {
    // 1,000 clean scores: 900 spread below 0.5, 100 spread over [0.5, 1)
    const scores = [...Array.from({ length: 900 }, (_, i) => (i / 900) * 0.5), ...Array.from({ length: 100 }, (_, i) => 0.5 + i / 200)];
    const { chosen, curve } = cleanThreshold(scores, THRESHOLD_GRID, 0.03);
    expect(chosen.fpr + chosen.fpr_se).toBeLessThanOrEqual(0.03);
    const below = curve.filter((c) => c.threshold < chosen.threshold);
    for (const c of below) expect(c.fpr + c.fpr_se).toBeGreaterThan(0.03);
    // FPR alone would allow a lower threshold: the standard error is the margin
    expect(below.some((c) => c.fpr <= 0.03)).toBe(true);
    expect(chosen.threshold).toBeGreaterThan(0.8);
    expect(chosen.threshold).toBeLessThan(0.9);
    // nothing fits: the highest grid threshold
    expect(cleanThreshold(scores.map(() => 0.99), THRESHOLD_GRID, 0.03).chosen.threshold).toBe(THRESHOLD_GRID.at(-1));
    expect(() => cleanThreshold([], THRESHOLD_GRID, 0.03)).toThrow();
  });

  describe('calibratedThreshold (decision record 021)', () => {
    const scores = (neg: number[], pos: number[], forced: number[] = []): CalibrationScore[] => [
      ...neg.map((p) => ({ y: 0 as const, p, forced: false })),
      ...pos.map((p) => ({ y: 1 as const, p, forced: false })),
      ...forced.map((p) => ({ y: 0 as const, p, forced: true })),
    ];
    const spread = (n: number, lo: number, hi: number) => Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / (n - 1));

    it('picks the lowest threshold whose FPR plus one standard error fits the budget', () => {
      const s = scores(spread(400, 0, 0.7), spread(400, 0.4, 1));
      const { chosen, curve } = calibratedThreshold(s, THRESHOLD_GRID, 0.03);
      expect(chosen.fpr + chosen.fpr_se).toBeLessThanOrEqual(0.03);
      const below = curve.filter((c) => c.threshold < chosen.threshold);
      expect(below.length).toBeGreaterThan(0);
      for (const c of below) expect(c.fpr + c.fpr_se).toBeGreaterThan(0.03);
      // the margin costs threshold: FPR alone would allow a lower one
      expect(below.some((c) => c.fpr <= 0.03)).toBe(true);
      expect(chosen.recall).toBeGreaterThan(0.5);
    });

    it('counts override-flagged responses at every threshold, so they spend the budget', () => {
      const base = calibratedThreshold(scores(spread(400, 0, 0.7), spread(400, 0.4, 1)), THRESHOLD_GRID, 0.03).chosen;
      const withForced = calibratedThreshold(scores(spread(400, 0, 0.7), spread(400, 0.4, 1), [0.01, 0.02, 0.03, 0.04, 0.05]), THRESHOLD_GRID, 0.03).chosen;
      expect(withForced.threshold).toBeGreaterThan(base.threshold);
      expect(withForced.fpr).toBeGreaterThan(0);
    });

    it('falls back to the highest threshold when nothing fits, and refuses a one-class set', () => {
      const { chosen } = calibratedThreshold(scores([0.99, 0.99, 0.99], [0.99]), THRESHOLD_GRID, 0.03);
      expect(chosen.threshold).toBe(Math.max(...THRESHOLD_GRID));
      expect(() => calibratedThreshold(scores([0.1], []), THRESHOLD_GRID, 0.03)).toThrow(/both/);
    });
  });
});
