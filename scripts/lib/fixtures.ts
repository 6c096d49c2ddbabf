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
  return readFixtureJsonl(join(dir, 'responses.jsonl'), Fixture, 'responses.jsonl');
}

/** One record per non-blank line, each validated by `schema`; errors name `label` and the line. */
export function readFixtureJsonl<T>(file: string, schema: z.ZodType<T>, label: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const r = schema.safeParse(JSON.parse(l));
      if (!r.success) throw new Error(`${label} line ${i + 1}: ${r.error.message}`);
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
