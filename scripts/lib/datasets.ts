// Loaders for the public datasets in ../shared/data (formats in its README.md): sentence records
// (toxigen, stereoset, redditbias), pair records (crows_pairs, winobias) and BBQ's own records.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type Split = 'train' | 'test';

export interface SentenceRecord {
  id: string;
  text: string;
  label: 'biased' | 'unbiased';
  group: string;
  source: string;
  split: Split;
  orig_label?: string;
  cluster_id?: string;
  bias_type?: string;
  task?: string;
}

export interface PairRecord {
  id: string;
  more_biased: string;
  less_biased: string;
  bias_type: string;
  source: string;
  split: Split;
  winobias_type?: number;
  stereo_antistereo?: string;
}

export interface BbqRecord {
  example_id: number;
  question_index: string;
  question_polarity: 'neg' | 'nonneg';
  context_condition: 'ambig' | 'disambig';
  category: string;
  answer_info: Record<'ans0' | 'ans1' | 'ans2', [string, string]>;
  additional_metadata: { stereotyped_groups: string[]; subcategory?: string; version?: string; source?: string };
  context: string;
  question: string;
  ans0: string;
  ans1: string;
  ans2: string;
  label: number;
  split: Split;
}

export const DATASET_FILES = {
  toxigen: 'toxigen/toxigen.jsonl',
  stereoset: 'stereoset/stereoset.jsonl',
  redditbias: 'redditbias/redditbias.jsonl',
  crows_pairs: 'crows_pairs/crows_pairs.jsonl',
  winobias: 'winobias/winobias.jsonl',
  bbq: 'bbq/bbq.jsonl',
} as const;
export type DatasetName = keyof typeof DATASET_FILES;

/** Default data directory: ../shared/data relative to the repository root (the current directory for npm scripts). */
export function defaultDataDir(): string {
  return resolve(process.cwd(), '..', 'shared', 'data');
}

export function datasetPath(dataDir: string, name: DatasetName): string {
  return join(dataDir, DATASET_FILES[name]);
}

/** Names (with expected paths) of the datasets missing under dataDir. */
export function missingDatasets(dataDir: string, names: readonly DatasetName[]): string[] {
  return names.filter((n) => !existsSync(datasetPath(dataDir, n))).map((n) => `${n} (expected ${datasetPath(dataDir, n)})`);
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as T;
      } catch (e) {
        throw new Error(`${path}:${i + 1}: invalid JSON (${(e as Error).message})`);
      }
    });
}

export function loadSentences(dataDir: string, name: 'toxigen' | 'stereoset' | 'redditbias'): SentenceRecord[] {
  return readJsonl<SentenceRecord>(datasetPath(dataDir, name));
}

export function loadPairs(dataDir: string, name: 'crows_pairs' | 'winobias'): PairRecord[] {
  return readJsonl<PairRecord>(datasetPath(dataDir, name));
}

export function loadBbq(dataDir: string): BbqRecord[] {
  return readJsonl<BbqRecord>(datasetPath(dataDir, 'bbq'));
}

/**
 * BBQ ambiguous-context item as three texts, each `context + " " + question + " " + answer`:
 * `stereotyped` is the answer naming the group the stereotype targets for a `neg` question (or the other
 * group for a `nonneg` question), `other` the remaining group answer, `unknown` the "can't tell" answer.
 * Returns undefined when the item does not resolve to exactly one answer of each kind.
 */
export function bbqAnswerTexts(r: BbqRecord): { stereotyped: string; other: string; unknown: string } | undefined {
  if (r.context_condition !== 'ambig') return undefined;
  const groups = r.additional_metadata.stereotyped_groups.map((g) => g.toLowerCase());
  const keys = ['ans0', 'ans1', 'ans2'] as const;
  let unknown: string | undefined;
  const target: string[] = [];
  const nonTarget: string[] = [];
  for (const k of keys) {
    const info = r.answer_info[k];
    const group = (info?.[1] ?? '').toLowerCase();
    if (group === 'unknown') unknown = r[k];
    else if (groupMatches(group, groups) || (!group.startsWith('non') && groups.includes((info?.[0] ?? '').toLowerCase()))) {
      target.push(r[k]);
    }
    else nonTarget.push(r[k]);
  }
  if (unknown === undefined || target.length !== 1 || nonTarget.length !== 1) return undefined;
  const [stereo, other] = r.question_polarity === 'neg' ? [target[0]!, nonTarget[0]!] : [nonTarget[0]!, target[0]!];
  const text = (ans: string): string => `${r.context} ${r.question} ${ans}`;
  return { stereotyped: text(stereo), other: text(other), unknown: text(unknown) };
}

// BBQ's answer_info labels are not always spelled like stereotyped_groups ("woman" vs "F", "M-man",
// "nonOld", a nationality named in the answer text but labelled by region). Both the answer's words and
// its group label are compared case-insensitively, with F/M aliases.
const GENDER_ALIASES: Record<string, string> = {
  woman: 'f', women: 'f', girl: 'f', girls: 'f', f: 'f', man: 'm', men: 'm', boy: 'm', boys: 'm', m: 'm',
};
function groupMatches(label: string, stereotyped: string[]): boolean {
  if (label === '') return false;
  if (stereotyped.includes(label)) return true;
  const parts = label.split('-');
  if (parts.some((p) => stereotyped.includes(p))) return true;
  const alias = GENDER_ALIASES[parts[0] ?? ''] ?? GENDER_ALIASES[parts[parts.length - 1] ?? ''];
  return alias !== undefined && stereotyped.includes(alias);
}

// ---- RedditBias counterfactual swaps -----------------------------------------------------------------

/** RedditBias's own word lists (original/): target→counter-target phrases and stereotypical→counter attributes. */
export interface RedditBiasSwaps {
  /** per RedditBias `group`: [from, to] phrase pairs, longest first */
  targets: Record<string, [string, string][]>;
  /** per group: [attribute, counter-attribute]; a trailing '*' on the attribute means "any word starting with" */
  attributes: Record<string, [string, string][]>;
}

const RB_FILES: Record<string, { dir: string; opposites: string; attr: string; pos: string }> = {
  women: { dir: 'gender', opposites: 'gender_opposites.txt', attr: 'gender_female.txt', pos: 'gender_female_pos.txt' },
  black: { dir: 'race', opposites: 'race_opposites.txt', attr: 'race_black.txt', pos: 'race_black_pos.txt' },
  lgbtq: { dir: 'orientation', opposites: 'orientation_opposites.txt', attr: 'orientation_lgbtq.txt', pos: 'orientation_lgbtq_pos.txt' },
  jews: { dir: 'religion1', opposites: 'religion1_opposites.txt', attr: 'religion1_jews.txt', pos: 'religion1_jews_pos.txt' },
  muslims: { dir: 'religion2', opposites: 'religion2_opposites.txt', attr: 'religion2_muslims.txt', pos: 'religion2_muslims_pos.txt' },
};

function readLines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split(/\r?\n/) : [];
}

export function loadRedditBiasSwaps(dataDir: string): RedditBiasSwaps {
  const root = join(dataDir, 'redditbias', 'original');
  const targets: Record<string, [string, string][]> = {};
  const attributes: Record<string, [string, string][]> = {};
  for (const [group, f] of Object.entries(RB_FILES)) {
    const t = new Map<string, string>();
    for (const line of readLines(join(root, f.dir, f.opposites))) {
      const m = line.match(/^"([^"]*)"\s*,\s*"([^"]*)"/);
      if (!m) continue;
      const strip = (s: string): string => s.toLowerCase().replace(/\s+(are|is|should)$/, '').trim();
      const a = strip(m[1]!);
      const b = strip(m[2]!);
      if (!a || !b || a === b) continue;
      t.set(a, b);
      // "black women" -> "white women" also yields "black" -> "white"
      const aw = a.split(/\s+/);
      const bw = b.split(/\s+/);
      if (aw.length === bw.length && aw.length > 1) {
        const diff = aw.map((w, i) => [w, bw[i]!] as const).filter(([x, y]) => x !== y);
        if (diff.length === 1 && !t.has(diff[0]![0])) t.set(diff[0]![0], diff[0]![1]);
      }
    }
    targets[group] = [...t].sort((x, y) => y[0].length - x[0].length || (x[0] < y[0] ? -1 : 1));
    const attr = readLines(join(root, f.dir, f.attr));
    const pos = readLines(join(root, f.dir, f.pos));
    const pairs: [string, string][] = [];
    for (let i = 0; i < Math.min(attr.length, pos.length); i++) {
      const a = attr[i]!.replace(/"/g, '').trim().toLowerCase();
      const p = pos[i]!.replace(/"/g, '').trim().toLowerCase();
      // '***' marks in the counter list flag entries without a real counterpart
      if (!a || !p || /\*{2,}/.test(p) || p.includes('/')) continue;
      pairs.push([a, p.replace(/\*+$/, '')]);
    }
    attributes[group] = pairs;
  }
  return { targets, attributes };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces the group's target phrases with their counter-targets; undefined when nothing matched. */
export function swapTargets(text: string, swaps: [string, string][]): string | undefined {
  let out = text.toLowerCase();
  let changed = false;
  const placeholders: string[] = [];
  for (const [a, b] of swaps) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(a)}(?![\\p{L}\\p{N}])`, 'gu');
    if (re.test(out)) {
      changed = true;
      placeholders.push(b);
      out = out.replace(re, `\u0000${placeholders.length - 1}\u0000`);
    }
  }
  if (!changed) return undefined;
  return out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => placeholders[Number(i)]!);
}

/** Replaces the first stereotypical attribute found with its counter-attribute; undefined when none matched. */
export function swapAttribute(text: string, swaps: [string, string][]): string | undefined {
  const lower = text.toLowerCase();
  for (const [a, b] of swaps) {
    const prefix = a.endsWith('*');
    const core = escapeRe(a.replace(/\*+$/, ''));
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${core}${prefix ? '[\\p{L}]*' : ''}(?![\\p{L}\\p{N}])`, 'u');
    if (re.test(lower)) return lower.replace(re, b);
  }
  return undefined;
}
