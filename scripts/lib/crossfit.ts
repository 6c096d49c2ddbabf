// Cross-fitting (decision record 015): every fixture outside the test split and the challenge sets belongs to one
// of N folds by a hash of its id, so the classifier that scores an item for the decision fit never trained on it.
import { createHash } from 'node:crypto';

export const CROSSFIT_FOLDS = 5;

export function fixtureFold(id: string, n: number): number {
  return Number.parseInt(createHash('sha256').update(`fold|${id}`).digest('hex').slice(0, 8), 16) % n;
}

export function parseFold(s: string): { k: number; n: number } {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  if (!m) throw new Error(`--holdout-fold: expected K/N, got ${s}`);
  const k = Number(m[1]);
  const n = Number(m[2]);
  if (n < 2 || k < 0 || k >= n) throw new Error(`--holdout-fold: need 0 <= K < N and N >= 2, got ${s}`);
  return { k, n };
}
