import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnalyzerSync } from '../../../shared/domain/analyzer';
import { BiasReport } from '../../../shared/schemas/analysis';

const analyzer = createAnalyzerSync({ classifier: { version: 'stub', score: (t) => (t.length % 7) / 7 } });

const check = (text: string, query = '') => {
  const r = analyzer.analyzeSync({ llm_response: text, original_query: query });
  BiasReport.parse(r);
  expect(r.confidence).toBeGreaterThanOrEqual(0);
  expect(r.confidence).toBeLessThanOrEqual(1);
  for (const f of (r.bias_report_summary as { findings: { spans: { start: number; end: number; text: string }[] }[] }).findings)
    for (const s of f.spans) expect(text.slice(s.start, s.end)).toBe(s.text);
};

const words = fc.constantFrom('women', 'older workers', 'are naturally', "can't", 'the chairman', 'he', 'digital natives', '"', '.', '\n', 'Muslims', 'idiots', 'margin', 'ignore emissions', ' ', '—', '😀', 'ß', '\u0000', '\u202e');

describe('analyzer never throws on arbitrary input', () => {
  it('handles arbitrary Unicode strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 2000 }), fc.string({ maxLength: 200 }), (t, q) => check(t, q)), { numRuns: 50, seed: 42 });
  });
  it('handles word salads of trigger phrases', () => {
    fc.assert(fc.property(fc.array(words, { maxLength: 400 }).map((w) => w.join(' ')), (t) => check(t)), { numRuns: 50, seed: 7 });
  });
  it('handles inputs up to 100 KB (binary-ish, no punctuation, and repeated triggers)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 90_000, maxLength: 100_000 }), (t) => check(t)),
      { numRuns: 3, seed: 1 },
    );
    check('a'.repeat(100_000));
    check('Women are naturally nurturing. '.repeat(3200).slice(0, 100_000));
  }, 120_000);
});
