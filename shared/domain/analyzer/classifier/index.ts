// The learned bias classifier (decision record docs/decisions/020-learned-classifier.md): a logistic
// regression over hashed word, character, co-occurrence and occupation×pronoun features, trained by
// `npm run train`. Weights are committed in weights.json and loaded once per process.
import weightsJson from './weights.json' with { type: 'json' };
import { extractFeatures } from './features';
import { decodeWeights, scoreParts, scoreWith, sigmoid, type LinearModel, type WeightsFile } from './model';
import { CLASSIFIER_VERSION } from './version';

export interface TextClassifier {
  version: string;
  /** P(biased) in [0,1] for a text (sentence or passage) */
  score(text: string): number;
  scoreMany(texts: readonly string[]): number[];
  /** Scores of each part and of the parts taken together as one passage (one feature walk per part). */
  scoreParts(parts: readonly string[]): { parts: number[]; whole: number };
  /** the k features that push the score up the most, with their contribution to the logit */
  explain(text: string, k?: number): { feature: string; contribution: number }[];
}

export { CLASSIFIER_VERSION };

let cached: TextClassifier | undefined;

export function classifierFromModel(model: LinearModel): TextClassifier {
  return {
    version: model.version,
    score: (text) => scoreWith(model, text),
    scoreMany: (texts) => texts.map((t) => scoreWith(model, t)),
    scoreParts: (parts) => scoreParts(model, parts),
    explain(text, k = 5) {
      const f = extractFeatures(text, model.features, true);
      const byName = new Map<string, number>();
      for (let i = 0; i < f.idx.length; i++) {
        const name = f.names![i]!;
        byName.set(name, (byName.get(name) ?? 0) + model.w[f.idx[i]!]! * model.scale * f.val[i]!);
      }
      return [...byName]
        .filter(([, c]) => c > 0)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, k)
        .map(([feature, contribution]) => ({ feature, contribution }));
    },
  };
}

/** Synchronous and memoised; decoding the committed int8 weights takes a few milliseconds. */
export function loadClassifier(): TextClassifier {
  if (cached) return cached;
  const model = decodeWeights(weightsJson as unknown as WeightsFile);
  if (model.version !== CLASSIFIER_VERSION) {
    throw new Error(`classifier weights version ${model.version} does not match the expected ${CLASSIFIER_VERSION}; run npm run train`);
  }
  cached = classifierFromModel(model);
  return cached;
}

export { sigmoid };

/** Sentence windows of a passage: each sentence together with the one before it (context), with offsets. */
export function sentenceWindows(text: string): { start: number; end: number; text: string }[] {
  const sents: { start: number; end: number }[] = [];
  const re = /[^.!?\n]+(?:[.!?]+|\n|$)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].trim() === '') {
      if (m[0].length === 0) re.lastIndex++;
      continue;
    }
    sents.push({ start: m.index, end: m.index + m[0].length });
  }
  return sents.map((s, i) => {
    const start = i > 0 ? sents[i - 1]!.start : s.start;
    return { start, end: s.end, text: text.slice(start, s.end) };
  });
}

/** Passage score as the highest score over its sentence windows (a single biased sentence is not diluted). */
export function maxSentenceScore(score: (t: string) => number, text: string): number {
  const ws = sentenceWindows(text);
  if (ws.length <= 1) return score(text);
  let best = 0;
  for (const w of ws) best = Math.max(best, score(w.text));
  return best;
}
