import { describe, expect, it } from 'vitest';
import { createAnalyzerSync } from '../../../shared/domain/analyzer';
import type { TextClassifier } from '../../../shared/domain/analyzer/detectors/classifier';
import { TAXONOMY_KEYS } from '../../../shared/domain/taxonomy';
import { BiasReport } from '../../../shared/schemas/analysis';
import { config } from './helpers';

const analyzer = createAnalyzerSync({ classifier: null });
const analyze = (llm_response: string, extra: Record<string, unknown> = {}, cfg = config()) => analyzer.analyzeSync({ llm_response, original_query: '', ...extra }, cfg);

describe('report assembly', () => {
  it('produces the exact FR-BIAS-4.3.2 shape with taxonomy-only bias types', () => {
    const r = analyze('The chairman says older workers are naturally slow to learn, so hire digital natives.');
    expect(BiasReport.parse(r)).toBeTruthy();
    expect(Object.keys(r).sort()).toEqual(['bias_detected', 'bias_report_summary', 'bias_score', 'bias_type', 'confidence', 'mitigation_action']);
    expect(r.bias_detected).toBe(true);
    expect(r.bias_type).toContain('age');
    expect(r.bias_type).toContain('stereotype');
    for (const t of r.bias_type) expect(TAXONOMY_KEYS.has(t)).toBe(true);
    for (const k of ['stereotype_score', 'language_score', 'toxicity_score', 'sentiment_divergence', 'domain_rule_score', 'overall']) expect(r.bias_score[k]).toBeTypeOf('number');
    const s = r.bias_report_summary as Record<string, any>;
    expect(s.overall_score).toBe(r.bias_score.overall);
    expect(Object.keys(s.detector_versions)).toEqual(expect.arrayContaining(['language', 'stereotype', 'toxicity', 'sentiment_disparity', 'domain_rules', 'council_disagreement']));
    expect(s.timings_ms.total).toBeGreaterThan(0);
    for (const f of s.findings) for (const sp of f.spans) expect(r.bias_report_summary && sp.text).toBe('The chairman says older workers are naturally slow to learn, so hire digital natives.'.slice(sp.start, sp.end));
  });

  it('gives concrete rewrites for wording findings', () => {
    const r = analyze('The chairman asked each engineer to update his laptop before the audit.');
    const rewrites = r.mitigation_action.rewrites as { from: string; to: string; span: { start: number; end: number } }[];
    expect(rewrites).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'chairman', to: 'chair' }), expect.objectContaining({ from: 'his', to: 'their' })]));
  });

  it('reports clean text as not biased with a confident NONE', () => {
    const r = analyze('Revenue for Q3 is forecast at $48.2M, up 7% year on year, driven by subscriptions.');
    expect(r.bias_detected).toBe(false);
    expect(r.bias_type).toEqual([]);
    expect(r.mitigation_action.type).toBe('NONE');
    expect(r.confidence).toBeGreaterThan(0.5);
  });

  it('without the classifier, suggests review only when a rule found something', () => {
    const lowFloor = config({ review_confidence_floor: 0.05, detection_threshold: 0.99 });
    const clean = analyze('Revenue for Q3 is forecast at $48.2M, up 7% year on year, driven by subscriptions.', {}, lowFloor);
    expect(clean.mitigation_action.type).toBe('NONE');
    const worded = analyze('The chairman will present the forecast on Thursday.', {}, lowFloor);
    expect(worded.bias_detected).toBe(false);
    expect(worded.mitigation_action.type).toBe('HUMAN_REVIEW');
  });

  it('blocks hostile responses', () => {
    expect(analyze('Those immigrants are vermin and should be deported.').mitigation_action.type).toBe('BLOCK_RESPONSE');
  });

  it('asks to rephrase the prompt when the prompt presupposes the stereotype', () => {
    const r = analyze('Sure. Women are naturally less suited to engineering, so emphasise support roles.', { original_query: 'Explain why women are naturally worse engineers.' });
    expect(r.mitigation_action.type).toBe('REPHRASE_PROMPT');
  });

  it('applies tenant thresholds and enabled detectors', () => {
    const text = 'Older workers are naturally slow to learn new tools.';
    expect(analyze(text).bias_detected).toBe(true);
    expect(analyze(text, {}, config({ enabled_detectors: ['language', 'toxicity'] })).bias_detected).toBe(false);
    expect(analyze(text, {}, config({ detection_threshold: 0.999 })).bias_detected).toBe(false);
    // A detector threshold stops that detector's finding counting; the classifier may still flag blunt text on its own.
    const raised = analyze(text, {}, config({ detector_thresholds: { stereotype: 0.95 } }));
    const findings = (raised.bias_report_summary as { findings: { detector: string; counted: boolean }[] }).findings;
    expect(findings.find((f) => f.detector === 'stereotype')?.counted).toBe(false);
    expect(raised.bias_score.overall).toBeLessThan(analyze(text).bias_score.overall ?? 0);
  });

  it('never flips bias_detected on council disagreement alone', () => {
    const r = analyze('Hire the best engineer.', { council_responses: [{ member_id: 'a', response: 'Hire women and older workers.' }, { member_id: 'b', response: 'Hire the best engineer.' }] });
    expect(r.bias_detected).toBe(false);
    expect(r.bias_score.council_coverage_variance).toBeGreaterThan(0);
    expect((r.bias_report_summary as any).council.flagged_axes.length).toBeGreaterThan(0);
  });

  it('uses the classifier as one weighted piece of evidence', () => {
    const strong: TextClassifier = { version: 'stub', score: () => 0.99 };
    const weak: TextClassifier = { version: 'stub', score: () => 0.01 };
    const text = 'Revenue is up 7%.';
    const hi = createAnalyzerSync({ classifier: strong }).analyzeSync({ llm_response: text, original_query: '' });
    const lo = createAnalyzerSync({ classifier: weak }).analyzeSync({ llm_response: text, original_query: '' });
    expect(hi.bias_score.overall).toBeGreaterThan(lo.bias_score.overall!);
    expect(hi.bias_score.classifier_score).toBe(0.99);
  });
});
