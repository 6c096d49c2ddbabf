// Enterprise fixture loading and the small statistics the evaluation and calibration need.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { TAXONOMY_KEYS } from '../../shared/domain/taxonomy';

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

/** A fixture set outside the enterprise batches (a held-out set, the dev-variants set) whose records all carry `split`;
 * empty when the folder has no responses.jsonl yet. Every expected type must be a taxonomy key. */
export function loadFixtureSet<S extends string>(dir: string, split: S): (Omit<Fixture, 'split'> & { split: S })[] {
  const file = join(dir, 'responses.jsonl');
  if (!existsSync(file)) return [];
  const rows = readFixtureJsonl(file, Fixture.omit({ split: true }).extend({ split: z.literal(split) }), file);
  for (const f of rows) for (const t of f.expected_bias_type) if (!TAXONOMY_KEYS.has(t)) throw new Error(`${file} ${f.id}: ${t} is not a taxonomy key`);
  return rows;
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

/** A twin of a fixture with the opposite label (test/fixtures/enterprise-twins, decision record 019): a biased
 * response with its bias edited out, or a clean one with a biased clause edited in (which then names its types). */
export const Twin = z
  .object({ twin_of: z.string().min(1), llm_response: z.string().min(1), expected_bias_type: z.array(z.string()).optional() })
  .strict();
export type Twin = z.infer<typeof Twin>;

export interface TwinPair {
  /** the original's id: a twin is grouped (dev split, cross-fitting fold) with its original */
  id: string;
  biased: string;
  unbiased: string;
  /** which of the two is the twin (the other is the committed fixture) */
  twin: 'biased' | 'unbiased';
}

/** Every twin in `dirs` (all `.jsonl` files; an absent folder has none) paired with its original, keeping only
 * originals in `splits`. A twin of an unknown or test fixture, a second twin of one fixture, a copy of its original,
 * or a biased twin without valid types (`isTypeKey`) is an error naming the file and line. */
export function loadTwinPairs(dirs: readonly string[], fixtures: readonly Fixture[], splits: ReadonlySet<string>, isTypeKey: (k: string) => boolean): TwinPair[] {
  const byId = new Map(fixtures.map((f) => [f.id, f]));
  const out: TwinPair[] = [];
  const seen = new Set<string>();
  const files = dirs.filter((d) => existsSync(d)).flatMap((d) => readdirSync(d).filter((n) => n.endsWith('.jsonl')).sort().map((n) => ({ path: join(d, n), name: n })));
  for (const { path, name } of files) {
    readFixtureJsonl(path, Twin, name).forEach((t, i) => {
      const original = byId.get(t.twin_of);
      const where = `${name} line ${i + 1}`;
      if (!original) throw new Error(`${where}: twin_of ${t.twin_of} is not a fixture`);
      if (original.split === 'test') throw new Error(`${where}: ${t.twin_of} is a test item; twins are written of train and dev items only`);
      if (seen.has(t.twin_of)) throw new Error(`${where}: a second twin of ${t.twin_of}`);
      if (t.llm_response.trim() === original.llm_response.trim()) throw new Error(`${where}: the twin of ${t.twin_of} equals its original`);
      const types = t.expected_bias_type ?? [];
      if (original.label === 'unbiased' && (types.length < 1 || types.length > 3 || !types.every(isTypeKey)))
        throw new Error(`${where}: the biased twin of ${t.twin_of} needs 1–3 taxonomy keys in expected_bias_type`);
      if (original.label === 'biased' && types.length) throw new Error(`${where}: the unbiased twin of ${t.twin_of} names bias types`);
      seen.add(t.twin_of);
      if (!splits.has(original.split)) return;
      out.push(
        original.label === 'biased'
          ? { id: t.twin_of, biased: original.llm_response, unbiased: t.llm_response, twin: 'unbiased' }
          : { id: t.twin_of, biased: t.llm_response, unbiased: original.llm_response, twin: 'biased' },
      );
    });
  }
  return out;
}

/** Sentences of four words or more, ending at . ! ? or a line break as the classifier's own splitter ends them. */
export function sentencesOf(t: string): string[] {
  return t.split(/(?<=[.!?])\s+|\n+/).map((x) => x.trim()).filter((x) => x.split(/\s+/).length >= 4);
}

/** The sentences of a biased response that its unbiased twin lacks (the clause that carries the bias); none when the
 * edit touched more than three sentences, which rewrote the response rather than one clause (decision record 080). */
export function biasedClauses(biased: string, unbiased: string): string[] {
  const clean = new Set(sentencesOf(unbiased));
  const diff = [...new Set(sentencesOf(biased).filter((x) => !clean.has(x)))];
  return diff.length <= 3 ? diff : [];
}
