// Feature extraction for the learned bias classifier (decision record 020). Pure and deterministic:
// the same text always yields the same hashed features, in training (scripts/train.ts) and at runtime.
import { FEMALE_OCCUPATIONS, MALE_OCCUPATIONS } from './occupations';

export interface FeatureConfig {
  /** log2 of the number of hash buckets */
  hashBits: number;
  /** per-block weights; a block with weight 0 is skipped */
  unigram: number;
  bigram: number;
  chars: number;
  pairs: number;
  winobias: number;
  /** group-context block: words around a group word, with the group itself abstracted away (0 = off; weights
   * files written before the block existed load with 0) */
  group?: number;
  /** how many words after a group word are paired with it */
  groupWindow?: number;
  /** max distance between the two words of a co-occurrence pair */
  pairWindow: number;
  /** character n-gram lengths (inside " word ") */
  charMin: number;
  charMax: number;
}

export const DEFAULT_FEATURE_CONFIG: FeatureConfig = {
  hashBits: 20,
  unigram: 1,
  bigram: 1,
  chars: 1,
  pairs: 1,
  winobias: 1,
  group: 1,
  groupWindow: 6,
  pairWindow: 4,
  charMin: 4,
  charMax: 4,
};

/** A sparse feature vector: bucket indices and signed values (duplicates allowed; they add up). */
export interface Features {
  idx: ArrayLike<number>;
  val: ArrayLike<number>;
  /** human-readable names, only filled when requested (explanations) */
  names?: string[];
}

// Lowercase, unify quotes and dashes, drop apostrophes ("don't" -> "dont", as in RedditBias), so that
// model-written text and the Reddit/crowd-written training text look alike.
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b\u02bc\u0060\u00b4']/g, '')
    .replace(/[\u201c\u201d\u201e\u00ab\u00bb]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-');
}

const SENTENCE_SPLIT = /[.!?;:\n\r]+/;
const WORD = /[\p{L}\p{N}]+/gu;

/** Sentences of normalised text, each as a list of word tokens (empty sentences dropped). */
export function sentenceTokens(text: string): string[][] {
  const out: string[][] = [];
  for (const s of normalizeText(text).split(SENTENCE_SPLIT)) {
    const toks = s.match(WORD);
    if (toks && toks.length > 0) out.push(toks);
  }
  return out;
}

// ---- hashing -------------------------------------------------------------------------------------

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function combine(a: number, b: number): number {
  return fmix((Math.imul(a, 0x9e3779b1) ^ b) >>> 0);
}

const NS_UNI = 0x1001;
const NS_BI = 0x2002;
const NS_CHAR = 0x3003;
const NS_PAIR = 0x4004;
const NS_WB = 0x5005;
const NS_GRP = 0x6006;

const STOP = new Set(
  ('a an the and or but if then of to in on at by for with from as is are was were be been being am it its this that these ' +
    'those there here i me my we our you your he him his she her they them their what which who whom whose when where why how ' +
    'do does did doing have has had having not no so than too very can could will would shall should may might must just also ' +
    'about into over after before up down out off again further once all any both each few more most other some such only own ' +
    'same s t don now').split(' '),
);

type Gender = 'm' | 'f';
const PRONOUNS: Record<string, [Gender, string]> = {
  he: ['m', 'subj'], him: ['m', 'obj'], his: ['m', 'poss'], himself: ['m', 'refl'],
  she: ['f', 'subj'], her: ['f', 'objposs'], hers: ['f', 'poss'], herself: ['f', 'refl'],
};
// 'his' and 'her' are both possessive in "his idea"/"her idea"; 'her' is also the object. Map both sides
// onto the same case so he/she swaps stay comparable.
const CASE_OF: Record<string, string> = { subj: 'subj', obj: 'obj', poss: 'poss', objposs: 'obj', refl: 'refl' };

const OCCUPATION_GENDER = new Map<string, Gender>();
for (const o of MALE_OCCUPATIONS) OCCUPATION_GENDER.set(o, 'm');
for (const o of FEMALE_OCCUPATIONS) OCCUPATION_GENDER.set(o, 'f');
const MULTIWORD = [...OCCUPATION_GENDER.keys()].filter((o) => o.includes(' ')).map((o) => o.split(' '));

function occupationAt(toks: string[], i: number): [string, number] | undefined {
  for (const parts of MULTIWORD) {
    if (parts.every((p, k) => toks[i + k] === p || toks[i + k] === `${p}s`)) return [parts.join(' '), parts.length];
  }
  const t = toks[i]!;
  if (OCCUPATION_GENDER.has(t)) return [t, 1];
  if (t.endsWith('s') && OCCUPATION_GENDER.has(t.slice(0, -1))) return [t.slice(0, -1), 1];
  return undefined;
}

// ---- extraction ----------------------------------------------------------------------------------

/** Feature blocks. Blocks 0-3 are L2-normalised on their own (value = weight / sqrt(count)) so that
 * passages of any length give comparable magnitudes and no block drowns the others; block 4
 * (occupation×pronoun) is few and meaningful individually, so each feature has value = weight. */
export const BLOCKS = ['unigram', 'bigram', 'chars', 'pairs', 'winobias', 'group'] as const;
export type Block = 0 | 1 | 2 | 3 | 4 | 5;
export const N_BLOCKS = BLOCKS.length;

/** Receives every hashed feature of a text; `name` is only computed when names were requested. */
export type FeatureSink = (block: Block, hash: number, name: string | undefined) => void;

export function blockValue(cfg: FeatureConfig, block: Block, count: number): number {
  const w = cfg[BLOCKS[block]] ?? 0;
  return block === 4 ? w : count > 0 ? w / Math.sqrt(count) : 0;
}

/** Walks all features of a text, in a fixed order. */
export function walkFeatures(text: string, cfg: FeatureConfig, sink: FeatureSink, withNames = false): void {
  for (const toks of sentenceTokens(text)) {
    const wh = toks.map(fnv1a);
    for (let i = 0; i < toks.length; i++) {
      const h = wh[i]!;
      if (cfg.unigram) sink(0, combine(NS_UNI, h), withNames ? toks[i]! : undefined);
      if (cfg.bigram && i + 1 < toks.length) {
        sink(1, combine(combine(NS_BI, h), wh[i + 1]!), withNames ? `${toks[i]} ${toks[i + 1]}` : undefined);
      }
      if (cfg.chars) {
        const w = ` ${toks[i]} `;
        if (w.length <= 24) {
          for (let n = cfg.charMin; n <= cfg.charMax; n++) {
            for (let s = 0; s + n <= w.length; s++) {
              let g = NS_CHAR + n;
              for (let k = s; k < s + n; k++) g = Math.imul(g ^ w.charCodeAt(k), 0x01000193);
              sink(2, fmix(g >>> 0), withNames ? `[${w.slice(s, s + n)}]` : undefined);
            }
          }
        }
      }
      if (cfg.pairs && !STOP.has(toks[i]!)) {
        for (let j = i + 2; j <= i + cfg.pairWindow && j < toks.length; j++) {
          if (STOP.has(toks[j]!)) continue;
          const a = h < wh[j]! ? h : wh[j]!;
          const b = h < wh[j]! ? wh[j]! : h;
          sink(3, combine(combine(NS_PAIR, a), b), withNames ? `${toks[i]} … ${toks[j]}` : undefined);
        }
      }
    }
    if (cfg.winobias) winobiasFeatures(toks, sink, withNames);
    if (cfg.group) groupFeatures(toks, wh, cfg.groupWindow ?? 6, sink, withNames);
  }
}

/** Materialised feature vector (training, explanations). Same values as the streaming scorer uses. */
export function extractFeatures(text: string, cfg: FeatureConfig = DEFAULT_FEATURE_CONFIG, withNames = false): Features {
  const mask = (1 << cfg.hashBits) - 1;
  const hashes: number[][] = BLOCKS.map(() => []);
  const blockNames: string[][] = BLOCKS.map(() => []);
  walkFeatures(
    text,
    cfg,
    (b, h, n) => {
      hashes[b]!.push(h);
      if (withNames) blockNames[b]!.push(n!);
    },
    withNames,
  );
  const idx: number[] = [];
  const val: number[] = [];
  const names: string[] = [];
  for (let b = 0 as Block; b < N_BLOCKS; b = (b + 1) as Block) {
    const hs = hashes[b]!;
    const v = blockValue(cfg, b, hs.length);
    if (v === 0) continue;
    for (let i = 0; i < hs.length; i++) {
      idx.push(hs[i]! & mask);
      val.push(hs[i]! & 0x80000000 ? -v : v);
      if (withNames) names.push(blockNames[b]![i]!);
    }
  }
  return withNames ? { idx, val, names } : { idx, val };
}

// Occupation × pronoun-gender conjunctions: a gendered pronoun after one or two occupations in the same
// sentence yields features saying whether the pronoun's gender matches each occupation's stereotyped
// gender, by the occupation's order, the pronoun's case and the word before the pronoun. They let a linear
// model learn default-gender assumptions ("the nurse ... she", "the developer ... he").
function winobiasFeatures(toks: string[], sink: FeatureSink, withNames: boolean): void {
  const occs: { occ: string; gender: Gender }[] = [];
  for (let i = 0; i < toks.length; i++) {
    const pron = PRONOUNS[toks[i]!];
    if (pron && occs.length > 0) {
      const [g, rawCase] = pron;
      const c = CASE_OF[rawCase]!;
      const prev = i > 0 ? toks[i - 1]! : '^';
      const emit = (name: string): void => sink(4, combine(NS_WB, fnv1a(name)), withNames ? name : undefined);
      const firstTwo = occs.slice(0, 2);
      for (let k = 0; k < firstTwo.length; k++) {
        const o = firstTwo[k]!;
        const match = o.gender === g ? 'pro' : 'anti';
        emit(`wb:${match}:${k}:${c}`);
        emit(`wb:${match}:${k}:${c}:${prev}`);
        emit(`wb:occ:${o.occ}:${g}:${k}`);
      }
      const nearest = occs[occs.length - 1]!;
      emit(`wb:${nearest.gender === g ? 'pro' : 'anti'}:near:${c}`);
      continue;
    }
    const hit = occupationAt(toks, i);
    if (hit) {
      occs.push({ occ: hit[0], gender: OCCUPATION_GENDER.get(hit[0])! });
      i += hit[1] - 1;
    }
  }
}

// ---- group context ----------------------------------------------------------------------------------

// Words that name (or stand for) a group of people. The group-context block pairs what is said around such a
// word with an abstract "G" instead of the word itself, so "G usually lack", "G tend to", "prefer G" or
// "G … struggle" learned from one group carry to every other group: the generalisation a bag of words lacks.
// Membership is all that matters here; what counts as a finding stays with the rule detectors.
const GROUP_WORDS = new Set(
  ('women woman men man girls boys girl boy mothers mother mums mum moms mom dads fathers wives wife husbands husband ' +
    'female females male males ladies lady guys gentlemen grandma grandmas grandmother ' +
    'older elderly old young younger youngsters millennials boomers seniors pensioners retirees teenagers teens ' +
    'immigrants immigrant foreigners foreign migrants migrant refugees refugee asylum expats ' +
    'black blacks hispanic hispanics latino latinos latina latinas asian asians african africans arab arabs roma gypsies travellers ' +
    'indian indians chinese nigerian nigerians mexican mexicans filipino filipinos filipinas polish romanian romanians ' +
    'pakistani pakistanis bangladeshi somali syrian syrians eastern ethnic minority minorities ' +
    'muslim muslims islamic christian christians jewish jews hindu hindus sikh sikhs catholic catholics atheists religious hijab ' +
    'disabled disability autistic autism adhd dyslexic dyslexia blind deaf wheelchair neurodivergent stammer mental ' +
    'gay gays lesbian lesbians trans transgender lgbt lgbtq queer bisexual ' +
    'poor lowincome lowerincome benefits welfare estate estates workingclass ghetto ' +
    'overweight fat obese').split(' '),
);
// Small words that carry no signal between a group word and its predicate.
const GROUP_SKIP = new Set(['the', 'a', 'an', 'of', 'and', 'or', 'our', 'your', 'their', 'these', 'those', 'people', 'who']);

function groupFeatures(toks: string[], wh: number[], window: number, sink: FeatureSink, withNames: boolean): void {
  for (let i = 0; i < toks.length; i++) {
    if (!GROUP_WORDS.has(toks[i]!)) continue;
    const emit = (key: number, name: () => string): void => sink(5, combine(NS_GRP, key), withNames ? name() : undefined);
    // what comes right before the group: "prefer G", "like most G", "for G"
    if (i > 0) emit(combine(1, wh[i - 1]!), () => `${toks[i - 1]} G`);
    if (i > 1) emit(combine(combine(2, wh[i - 2]!), wh[i - 1]!), () => `${toks[i - 2]} ${toks[i - 1]} G`);
    // the predicate: each later word in the window, and the first two content words after the group as a bigram
    let seen = 0;
    let first = -1;
    for (let j = i + 1; j < toks.length && seen < window; j++) {
      if (GROUP_SKIP.has(toks[j]!) || GROUP_WORDS.has(toks[j]!)) continue;
      seen++;
      emit(combine(3, wh[j]!), () => `G … ${toks[j]}`);
      if (first < 0) first = j;
      else if (seen === 2) emit(combine(combine(4, wh[first]!), wh[j]!), () => `G ${toks[first]} ${toks[j]}`);
    }
  }
}
