// Cross-fitting (decision record 015): every training item (enterprise fixture or public train sentence) belongs to
// one of N folds by a hash of its grouping key, so the classifier that scores an item for the decision fit never
// trained on it. The keys are the ones scripts/train.ts groups by (its internal dev split uses the same keys).
import { createHash } from 'node:crypto';
import { loadSentences } from './datasets';

export const CROSSFIT_FOLDS = 5;

export function foldOf(key: string, n: number): number {
  return Number.parseInt(createHash('sha256').update(`fold|${key}`).digest('hex').slice(0, 8), 16) % n;
}

export function parseFold(s: string): { k: number; n: number } {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  if (!m) throw new Error(`--holdout-fold: expected K/N, got ${s}`);
  const k = Number(m[1]);
  const n = Number(m[2]);
  if (n < 2 || k < 0 || k >= n) throw new Error(`--holdout-fold: need 0 <= K < N and N >= 2, got ${s}`);
  return { k, n };
}

export function normKey(t: string): string {
  return t.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

export const fixtureKey = (id: string): string => `fixtures|${id}`;

/** A response of a spent held-out set that is trained on: its set is its author. */
export const heldOutSetKey = (set: string, id: string): string => `held-out-set|${set}|${id}`;

export type FoldBy = 'author' | 'item';

/** The key an item's cross-fitting fold is drawn from. Fixture ids number each author's responses in a block of 200
 * (test/fixtures/enterprise/README.md); by default a fold holds out whole authors, as a new deployment's text would
 * be, so the held-out clean twin of a biased response (same author, same topic) is never scored by a model that
 * learnt its twin (decision record 016). 'item' draws every fixture's fold on its own (decision record 015). */
export function foldKey(key: string, by: FoldBy = 'author'): string {
  if (by === 'author' && key.startsWith('held-out-set|')) return key.slice(0, key.lastIndexOf('|'));
  const m = by === 'author' ? /^fixtures\|.*?(\d+)$/.exec(key) : null;
  return m ? `fixtures-author|${Math.floor(Number(m[1]) / 200)}` : key;
}

export function parseFoldBy(s: string | undefined): FoldBy {
  if (s === undefined || s === 'author' || s === 'item') return s ?? 'author';
  throw new Error(`--fold-by: expected author or item, got ${s}`);
}

export const toxigenKey = (text: string): string => `toxigen|${normKey(text)}`;
/** RedditBias phrases are grouped by the comment they come from. */
export const redditbiasKey = (comment: string): string => `redditbias|${normKey(comment)}`;

export interface PublicTrainRow {
  source: 'toxigen' | 'redditbias';
  key: string;
  text: string;
  y: 0 | 1;
}

/** The ToxiGen and RedditBias train sentences scripts/train.ts learns from, with its grouping keys. */
export function publicTrainRows(dataDir: string): PublicTrainRow[] {
  const out: PublicTrainRow[] = [];
  const seen = new Set<string>();
  for (const r of loadSentences(dataDir, 'toxigen')) {
    if (r.split !== 'train' || seen.has(r.text)) continue;
    seen.add(r.text);
    out.push({ source: 'toxigen', key: toxigenKey(r.text), text: r.text, y: r.label === 'biased' ? 1 : 0 });
  }
  for (const r of loadSentences(dataDir, 'redditbias')) {
    if (r.split !== 'train') continue;
    const comment = (r as unknown as { comment?: string }).comment ?? r.text;
    out.push({ source: 'redditbias', key: redditbiasKey(comment), text: r.text, y: r.label === 'biased' ? 1 : 0 });
  }
  return out;
}
