// Learned classifier detector: scores every sentence and the whole response with the project's trained text
// classifier (shared/domain/analyzer/classifier, owned by the classifier work) and reports flagged sentences.
import type { Finding } from '../../../schemas/analysis';
import type { Detector, PreparedText } from '../detector';
import { clamp01, round4, span } from '../text';

/** The agreed contract of shared/domain/analyzer/classifier/index.ts. */
export interface TextClassifier {
  version: string;
  /** P(biased) for a text (sentence or passage). */
  score(text: string): number;
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
}

export function runClassifier(doc: PreparedText, classifier: TextClassifier): ClassifierResult {
  const whole = clamp01(classifier.score(doc.text.slice(0, 20_000)));
  const scored = doc.sentences.slice(0, MAX_SENTENCES).map((s) => ({ s, p: clamp01(classifier.score(s.text)) }));
  const top = scored.reduce((m, x) => Math.max(m, x.p), 0);
  const findings = scored
    .filter((x) => x.p >= SENTENCE_FLAG)
    .sort((a, b) => b.p - a.p)
    .slice(0, 5)
    .map<Finding>((x) => ({
      detector: 'classifier',
      detector_version: `${CLASSIFIER_DETECTOR_VERSION}+${classifier.version}`,
      bias_type: ['stereotype'],
      score: round4(x.p),
      explanation: `Learned classifier rates this sentence as likely biased (P=${round4(x.p)}).`,
      spans: [span(doc.text, x.s.start, x.s.end)],
      metric: 'classifier_score',
    }));
  return { findings, score: round4(Math.max(whole, top)), whole: round4(whole) };
}

export function classifierDetector(classifier: TextClassifier): Detector {
  return { name: 'classifier', version: `${CLASSIFIER_DETECTOR_VERSION}+${classifier.version}`, detect: (doc) => runClassifier(doc, classifier).findings };
}
