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
