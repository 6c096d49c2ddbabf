// Enterprise fixture loading and the small statistics the evaluation and calibration need.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const Fixture = z
  .object({
    id: z.string(),
    domain: z.string(),
    split: z.enum(['train', 'dev', 'test']),
    label: z.enum(['biased', 'unbiased']),
    hard_negative: z.boolean(),
    expected_bias_type: z.array(z.string()),
    original_query: z.string(),
    llm_response: z.string(),
  })
  .strict();
export type Fixture = z.infer<typeof Fixture>;

export function loadFixtures(dir: string): Fixture[] {
  return readFileSync(join(dir, 'responses.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const r = Fixture.safeParse(JSON.parse(l));
      if (!r.success) throw new Error(`responses.jsonl line ${i + 1}: ${r.error.message}`);
      return r.data;
    });
}

/** Mann-Whitney ROC AUC (ties count half). */
export function rocAuc(pos: number[], neg: number[]): number {
  if (!pos.length || !neg.length) return NaN;
  let s = 0;
  for (const p of pos) for (const n of neg) s += p > n ? 1 : p === n ? 0.5 : 0;
  return s / (pos.length * neg.length);
}

const logit = (p: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};

/**
 * Platt scaling on x = logit(raw): p = sigmoid(a x + b), fitted by Newton's method with Platt's smoothed
 * targets (N+ + 1)/(N+ + 2) and 1/(N- + 2), which keeps the fit finite on separable data.
 */
export function fitPlatt(raw: number[], y: number[]): { a: number; b: number } {
  const x = raw.map(logit);
  const nPos = y.filter((v) => v === 1).length;
  const nNeg = y.length - nPos;
  const tPos = (nPos + 1) / (nPos + 2);
  const tNeg = 1 / (nNeg + 2);
  const t = y.map((v) => (v === 1 ? tPos : tNeg));
  let a = 1;
  let b = 0;
  const lambda = 1e-3; // small ridge on a and b for stability
  for (let it = 0; it < 100; it++) {
    let ga = lambda * a, gb = lambda * b, haa = lambda, hab = 0, hbb = lambda;
    for (let i = 0; i < x.length; i++) {
      const p = 1 / (1 + Math.exp(-(a * x[i]! + b)));
      const d = p - t[i]!;
      const w = p * (1 - p);
      ga += d * x[i]!;
      gb += d;
      haa += w * x[i]! * x[i]!;
      hab += w * x[i]!;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (Math.abs(det) < 1e-12) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return { a, b };
}
