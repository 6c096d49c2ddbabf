import { describe, expect, it } from 'vitest';
import { createAnalyzerSync } from '../../../shared/domain/analyzer';
import { DEFAULT_FUSION, FUSION_FEATURES, fuse } from '../../../shared/domain/analyzer/report';

describe('score fusion (decision record 013)', () => {
  it('committed fusion weights match the feature list and carry a dev-split Platt fit', () => {
    expect(DEFAULT_FUSION).not.toBeNull();
    expect(DEFAULT_FUSION!.weights).toHaveLength(FUSION_FEATURES.length);
    expect(DEFAULT_FUSION!.platt?.n).toBeGreaterThan(0);
  });
  it('more classifier or rule evidence never lowers the fused score', () => {
    const base = FUSION_FEATURES.map(() => 0.2);
    for (const k of ['classifier_whole', 'classifier_top', 'rule_evidence', 'stereotype_max'] as const) {
      const i = FUSION_FEATURES.indexOf(k);
      const up = [...base];
      up[i] = 0.9;
      expect(fuse(up, DEFAULT_FUSION!)).toBeGreaterThan(fuse(base, DEFAULT_FUSION!));
    }
  });
  it('overall_score is the fused score; the decision still comes from rule evidence', () => {
    const a = createAnalyzerSync({ classifier: null });
    const biased = a.analyzeSync({ llm_response: 'Women are naturally worse at maths, so give the analytics work to the men.', original_query: '' });
    const clean = a.analyzeSync({ llm_response: 'Women make up 41% of the workforce and 28% of senior leadership.', original_query: '' });
    expect(biased.bias_detected).toBe(true);
    expect(clean.bias_detected).toBe(false);
    const s = (r: typeof biased) => r.bias_report_summary as { overall_score: number; decision_score: number; fused_raw_score?: number };
    expect(s(biased).fused_raw_score).toBeDefined();
    expect(s(biased).overall_score).toBeGreaterThan(s(clean).overall_score);
    expect(biased.confidence).toBeCloseTo(s(biased).decision_score, 4);
  });
});
