import { describe, expect, it } from 'vitest';
import { createAnalyzerSync } from '../../../shared/domain/analyzer';
import { AXIS_KEYS, axisPredictorFrom, AXIS_THRESHOLD, type AxisModelsFile } from '../../../shared/domain/analyzer/classifier/axes';
import axesJson from '../../../shared/domain/analyzer/classifier/axes.json' with { type: 'json' };
import { loadDefaultAxisPredictor } from '../../../shared/domain/analyzer/default-axes';
import type { TextClassifier } from '../../../shared/domain/analyzer/detectors/classifier';
import { AXES } from '../../../shared/domain/analyzer/groups';

// A stand-in classifier that rates everything as biased, so detection rests on it alone and no rule names a group.
const alwaysBiased: TextClassifier = { version: 'test-always', score: () => 0.99 };
const PROXY = 'I would skip the applicants from the Northfield council estate; tenants from there rarely keep up with rent.';

describe('axis models (decision record 017)', () => {
  it('hold one model per taxonomy axis and the domain key, with the committed threshold', () => {
    const file = axesJson as unknown as AxisModelsFile;
    expect(Object.keys(file.models).sort()).toEqual([...AXIS_KEYS].sort());
    expect(file.threshold).toBe(AXIS_THRESHOLD);
    expect(file.version).toMatch(/^axes-[0-9a-f]{12}$/);
    expect(() => axisPredictorFrom({ ...file, format: 'other' as never })).toThrow(/format/);
  });

  it('name the axis a proxy points to, most probable first, all above the threshold', () => {
    const got = loadDefaultAxisPredictor().predict(PROXY);
    expect(got[0]?.axis).toBe('socioeconomic');
    for (const a of got) expect(a.p).toBeGreaterThanOrEqual(AXIS_THRESHOLD);
    expect(got.map((a) => a.p)).toEqual([...got.map((a) => a.p)].sort((x, y) => y - x));
    expect(loadDefaultAxisPredictor().predict('She has two young children, so she may struggle with the travel this role needs.')[0]?.axis).toBe('gender');
  });

  it('add the inferred axis to a learned detection that names no group, and say so in the summary', () => {
    const r = createAnalyzerSync({ classifier: alwaysBiased }).analyzeSync({ llm_response: PROXY, original_query: '' });
    expect(r.bias_detected).toBe(true);
    expect(r.bias_type).toContain('socioeconomic');
    expect(r.bias_type).toContain('stereotype');
    const s = r.bias_report_summary as { axis_inference?: { version: string; axes: { axis: string }[] } };
    expect(s.axis_inference?.axes[0]?.axis).toBe('socioeconomic');
  });

  it('stay out when disabled, and when the classifier is off', () => {
    const off = createAnalyzerSync({ classifier: alwaysBiased, axes: null }).analyzeSync({ llm_response: PROXY, original_query: '' });
    expect(off.bias_type.some((t) => (AXES as readonly string[]).includes(t))).toBe(false);
    expect((off.bias_report_summary as Record<string, unknown>).axis_inference).toBeUndefined();
    const rulesOnly = createAnalyzerSync({ classifier: null }).analyzeSync({ llm_response: PROXY, original_query: '' });
    expect((rulesOnly.bias_report_summary as Record<string, unknown>).axis_inference).toBeUndefined();
  });
});
