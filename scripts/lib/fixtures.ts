// Enterprise fixture loading and the small statistics the evaluation and calibration need.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** An unbiased twin of a biased fixture (test/fixtures/enterprise-twins, decision record 019). */
export const Twin = z.object({ twin_of: z.string().min(1), llm_response: z.string().min(1) }).strict();
export type Twin = z.infer<typeof Twin>;

export interface TwinPair {
  /** the original's id: a twin is grouped (dev split, cross-fitting fold) with its original */
  id: string;
  biased: string;
  unbiased: string;
}

/** Every twin in `dir` (all `.jsonl` files; none if the folder is absent) paired with its original, keeping only
 * originals in `splits`. A twin of an unknown or unbiased fixture, or one equal to its original, is an error. */
export function loadTwinPairs(dir: string, fixtures: readonly Fixture[], splits: ReadonlySet<string>): TwinPair[] {
  if (!existsSync(dir)) return [];
  const biased = new Map(fixtures.filter((f) => f.label === 'biased').map((f) => [f.id, f]));
  const out: TwinPair[] = [];
  const seen = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
    readFixtureJsonl(join(dir, name), Twin, name).forEach((t, i) => {
      const original = biased.get(t.twin_of);
      const where = `${name} line ${i + 1}`;
      if (!original) throw new Error(`${where}: twin_of ${t.twin_of} is not a biased fixture`);
      if (original.split === 'test') throw new Error(`${where}: ${t.twin_of} is a test item; twins are written of train and dev items only`);
      if (seen.has(t.twin_of)) throw new Error(`${where}: a second twin of ${t.twin_of}`);
      if (t.llm_response.trim() === original.llm_response.trim()) throw new Error(`${where}: the twin of ${t.twin_of} equals its original`);
      seen.add(t.twin_of);
      if (splits.has(original.split)) out.push({ id: t.twin_of, biased: original.llm_response, unbiased: t.llm_response });
    });
  }
  return out;
}
