// Learned classifier detector: scores every sentence and the whole response with the project's trained text
// classifier (shared/domain/analyzer/classifier, owned by the classifier work) and reports flagged sentences.
import type { Finding } from '../../../schemas/analysis';
import type { Detector, PreparedText } from '../detector';
import { clamp01, MAX_SENTENCE, round4, span } from '../text';

/** The agreed contract of shared/domain/analyzer/classifier/index.ts. */
export interface TextClassifier {
  version: string;
  /** P(biased) for a text (sentence or passage). */
  score(text: string): number;
  /** Optional fast path: scores of each part and of all parts as one passage. */
  scoreParts?(parts: readonly string[]): { parts: number[]; whole: number };
}

export const CLASSIFIER_DETECTOR_VERSION = '1.0.0';
/** Sentences scoring at least this are reported as findings (the metric uses the raw maximum either way). */
export const SENTENCE_FLAG = 0.5;
const MAX_SENTENCES = 400;

export interface ClassifierResult {
  findings: Finding[];
  /** max(whole-text score, highest sentence score). */
  score: number;
  whole: number;
  /** highest sentence score */
  top: number;
}

export function runClassifier(doc: PreparedText, classifier: TextClassifier): ClassifierResult {
  const sentences = doc.sentences.slice(0, MAX_SENTENCES);
  let whole: number;
  let scored: { s: (typeof sentences)[number]; p: number; i: number }[];
  // Every analyzer sentence ends where the classifier's own splitter also splits (. ! ? or a line break), and
  // the text between sentences holds no words, so the whole-text score is the score of the summed sentence
  // features: one feature walk instead of two. Hard-wrapped or truncated texts take the exact slow path.
  if (classifier.scoreParts && doc.text.length <= 20_000 && doc.sentences.length <= MAX_SENTENCES && !sentences.some((s) => s.end - s.start >= MAX_SENTENCE)) {
    const r = classifier.scoreParts(sentences.map((s) => s.text));
    whole = clamp01(r.whole);
    scored = sentences.map((s, i) => ({ s, p: clamp01(r.parts[i]!), i }));
  } else {
    whole = clamp01(classifier.score(doc.text.slice(0, 20_000)));
    scored = sentences.map((s, i) => ({ s, p: clamp01(classifier.score(s.text)), i }));
  }
  const top = scored.reduce((m, x) => Math.max(m, x.p), 0);
  const findings = scored
    .filter((x) => x.p >= SENTENCE_FLAG)
    .sort((a, b) => b.p - a.p)
    .slice(0, 5)
    .map<Finding>((x) => ({
      detector: 'classifier',
      detector_version: `${CLASSIFIER_DETECTOR_VERSION}+${classifier.version}`,
      // the axes of the groups the flagged sentence names, so a reviewer sees who the sentence is about
      bias_type: [...new Set((doc.mentionsBySentence[x.i] ?? []).map((m) => m.axis as string)), 'stereotype'],
      score: round4(x.p),
      explanation: `Learned classifier rates this sentence as likely biased (P=${round4(x.p)}).`,
      spans: [span(doc.text, x.s.start, x.s.end)],
      metric: 'classifier_score',
    }));
  return { findings, score: round4(Math.max(whole, top)), whole: round4(whole), top: round4(top) };
}

export function classifierDetector(classifier: TextClassifier): Detector {
  return { name: 'classifier', version: `${CLASSIFIER_DETECTOR_VERSION}+${classifier.version}`, detect: (doc) => runClassifier(doc, classifier).findings };
}
