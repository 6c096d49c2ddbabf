// Sentiment disparity: sentence- (clause-) level sentiment with wink-nlp, grouped by the group each clause is
// about. Flags when, on one demographic axis, one group is described warmly and another coldly.
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { Finding } from '../../../schemas/analysis';
import type { Detector, PreparedText } from '../detector';
import type { GroupMention } from '../groups';
import { clamp01, matchesOf, round4, span } from '../text';

export const SENTIMENT_VERSION = '1.0.0';

// Loaded once per process (cold start, ~100 ms).
const nlp = winkNLP(model, ['sbd', 'negation', 'sentiment']);
const its = nlp.its;

export function sentimentOf(s: string): number {
  const doc = nlp.readDoc(s);
  const v = doc.out(its.sentiment) as unknown as number;
  return Number.isFinite(v) ? v : 0;
}

const CLAUSE_SPLIT = /\s*(?:;|,?\s+(?:whereas|while|but|however|although|though|yet|meanwhile|on the other hand|in contrast|by contrast)\s+|\.\s+)/gi;

interface Clause {
  start: number;
  end: number;
  mentions: GroupMention[];
}

function clausesOf(doc: PreparedText): Clause[] {
  const out: Clause[] = [];
  for (const s of doc.sentences) {
    const ms = doc.mentionsBySentence[s.index] ?? [];
    if (ms.length === 0) continue;
    const cuts = [0];
    for (const m of matchesOf(CLAUSE_SPLIT, s.text)) cuts.push(m.index, m.index + m[0].length);
    cuts.push(s.text.length);
    for (let i = 0; i + 1 < cuts.length; i += 2) {
      const a = s.start + cuts[i]!;
      const b = s.start + cuts[i + 1]!;
      const inside = ms.filter((m) => m.start >= a && m.end <= b);
      if (inside.length) out.push({ start: a, end: b, mentions: inside });
    }
  }
  return out;
}

export interface SentimentResult {
  findings: Finding[];
  /** Largest warm-minus-cold gap across axes (0 when fewer than two groups are compared). */
  divergence: number;
}

export function detectSentimentDisparity(doc: PreparedText): SentimentResult {
  // Which clauses speak of which group, per axis. Sentiment (wink-nlp, the costly part) is read afterwards and
  // only for axes that compare at least two groups: a lone group's clauses are never compared.
  const clauses = clausesOf(doc);
  const byAxis = new Map<string, Map<string, { clauses: number[]; spans: [number, number][] }>>();
  clauses.forEach((c, ci) => {
    const groupsHere = new Map<string, GroupMention>();
    for (const m of c.mentions) groupsHere.set(`${m.axis}|${m.group}`, m);
    // a clause naming two groups of one axis ("men and women") says nothing about either alone
    const axesHere = new Map<string, number>();
    for (const m of groupsHere.values()) axesHere.set(m.axis, (axesHere.get(m.axis) ?? 0) + 1);
    for (const m of groupsHere.values()) {
      if ((axesHere.get(m.axis) ?? 0) > 1) continue;
      const axis = byAxis.get(m.axis) ?? new Map();
      const g = axis.get(m.group) ?? { clauses: [], spans: [] };
      g.clauses.push(ci);
      g.spans.push([c.start, c.end]);
      axis.set(m.group, g);
      byAxis.set(m.axis, axis);
    }
  });
  const sentiments: (number | undefined)[] = [];
  const sentimentAt = (ci: number) => (sentiments[ci] ??= sentimentOf(doc.text.slice(clauses[ci]!.start, clauses[ci]!.end)));
  const findings: Finding[] = [];
  let divergence = 0;
  for (const [axis, groups] of byAxis) {
    if (groups.size < 2) continue;
    const means = [...groups.entries()].map(([g, v]) => {
      // summed in clause order, as the clauses were read
      let sum = 0;
      for (const ci of v.clauses) sum += sentimentAt(ci);
      return { g, mean: sum / v.clauses.length, spans: v.spans };
    });
    means.sort((a, b) => b.mean - a.mean);
    const warm = means[0]!;
    const cold = means[means.length - 1]!;
    const gap = warm.mean - cold.mean;
    divergence = Math.max(divergence, gap);
    if (gap >= 0.4 && warm.mean >= 0.1 && cold.mean <= -0.05) {
      findings.push({
        detector: 'sentiment_disparity',
        detector_version: SENTIMENT_VERSION,
        bias_type: [axis, 'sentiment_disparity'],
        score: clamp01(0.45 + (gap - 0.4) * 0.8),
        explanation: `Comparable content about ${warm.g.split(':')[1]} is warm (${round4(warm.mean)}) and about ${cold.g.split(':')[1]} is cold (${round4(cold.mean)}).`,
        spans: [...warm.spans.slice(0, 3), ...cold.spans.slice(0, 3)].map(([a, b]) => span(doc.text, a, b)),
        suggestion: 'Describe each group with the same evidence-based, neutral wording.',
        metric: 'sentiment_divergence',
      });
    }
  }
  return { findings, divergence: round4(Math.max(0, divergence)) };
}

export const sentimentDetector: Detector = {
  name: 'sentiment_disparity',
  version: SENTIMENT_VERSION,
  detect: (doc) => detectSentimentDisparity(doc).findings,
};
