import { describe, expect, it } from 'vitest';
import { runClassifier } from '../../../shared/domain/analyzer/detectors/classifier';
import { prepareText } from '../../../shared/domain/analyzer';
import { loadClassifier } from '../../../shared/domain/analyzer/classifier';

const clf = loadClassifier();
const texts = [
  'Women are naturally nurturing. They make great nurses; men are better engineers!\n\n- The developer said he would fix it.',
  'Our Q3 revenue grew 4.5%. Employees over 50 represent 19% of staff, e.g. in operations. "Quote." Next line?',
  'No punctuation at all just words about older workers and young people',
];

describe('classifier scoreParts (one feature walk per sentence)', () => {
  it('the whole-text score equals scoring the joined text when parts end at sentence boundaries', () => {
    for (const t of texts) {
      const doc = prepareText(t);
      const r = clf.scoreParts(doc.sentences.map((s) => s.text));
      expect(r.whole).toBeCloseTo(clf.score(t), 10);
      doc.sentences.forEach((s, i) => expect(r.parts[i]).toBeCloseTo(clf.score(s.text), 10));
    }
  });
  it('the detector gives the same result with and without the fast path', () => {
    const slow = { version: clf.version, score: (t: string) => clf.score(t) };
    for (const t of texts) {
      const doc = prepareText(t);
      const a = runClassifier(doc, clf);
      const b = runClassifier(doc, slow);
      expect(a.score).toBe(b.score);
      expect(a.whole).toBe(b.whole);
      expect(a.findings.map((f) => f.score)).toEqual(b.findings.map((f) => f.score));
    }
  });
});
