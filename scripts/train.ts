// npm run train -- [--data DIR] [--out FILE] [--fixtures DIR] [--include-stereoset] [--seed N] [--ensemble N] [--no-select]
//                   [--spent-sets DIR[,DIR] | --no-spent-sets] [--fixture-splits train,dev] [--holdout-fold K/N] [--fold-by author|item] [--hyper JSON] [--embeddings DIR | --no-embeddings] [--twins DIR[,DIR] | --no-twins]
//
// Trains the learned bias classifier (decision record 020) on the TRAIN splits only of ToxiGen, RedditBias,
// BBQ (ambiguous contexts), WinoBias, optionally StereoSet (CC BY-SA 4.0, off by default), and the project's
// enterprise fixtures (train split) and the spent held-out sets (decision record 023). Never CrowS-Pairs (its authors
// forbid training), never a test split, never an unspent held-out set.
// A dev split (15%, by the same grouping keys as the public train/test split) picks hyper-parameters, then
// the final model is trained on all train data. Deterministic: same data + seed -> byte-identical weights.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_FEATURE_CONFIG, extractFeatures, type FeatureConfig } from '../shared/domain/analyzer/classifier/features';
import { metricsSummary } from '../shared/domain/analyzer/classifier/metrics';
import { decodeWeights, dot, encodeWeights, scoreWith, sigmoid } from '../shared/domain/analyzer/classifier/model';
import { trainLinear, type BagExample, type PairExample, type PointExample } from '../shared/domain/analyzer/classifier/trainer';
import { fixtureKey, foldKey, foldOf, heldOutSetKey, parseFold, parseFoldBy, redditbiasKey, toxigenKey } from './lib/crossfit';
import { DEFAULT_EMBEDDINGS_DIR, denseFeatures, foldEmbeddings, loadEmbeddings } from './lib/embeddings';
import { biasedClauses, loadFixtures as loadFixtureRecords, loadTwinPairs, sentencesOf } from './lib/fixtures';
import { CALIBRATION_SETS, heldOutSetDir, ORDINARY_SETS, UNSPENT_SETS } from './lib/held-out-sets';
import { TAXONOMY_KEYS } from '../shared/domain/taxonomy';
import {
  bbqAnswerTexts,
  defaultDataDir,
  loadBbq,
  loadPairs,
  loadRedditBiasSwaps,
  loadSentences,
  missingDatasets,
  swapAttribute,
  swapTargets,
  type DatasetName,
} from './lib/datasets';

const DEFAULT_OUT = 'shared/domain/analyzer/classifier/weights.json';
const VERSION_TS = 'shared/domain/analyzer/classifier/version.ts';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    out: { type: 'string' },
    fixtures: { type: 'string' },
    /** spent held-out sets trained on as well (decision record 023): comma-separated folders, each one author;
     * default: every spent set in scripts/lib/held-out-sets.ts */
    'spent-sets': { type: 'string' },
    'no-spent-sets': { type: 'boolean', default: false },
    /** twins of fixtures (decision record 019): comma-separated folders, which may be absent */
    twins: { type: 'string', default: 'test/fixtures/enterprise-twins,test/fixtures/enterprise-twins-ordinary' },
    'no-twins': { type: 'boolean', default: false },
    'include-stereoset': { type: 'boolean', default: false },
    seed: { type: 'string', default: '20261122' },
    'no-select': { type: 'boolean', default: false },
    /** JSON overrides of the feature configuration, e.g. '{"chars":0}' (experiments) */
    features: { type: 'string' },
    /** JSON overrides of the per-source weights, e.g. '{"fixtures":4}' (experiments) */
    'source-weights': { type: 'string' },
    /** also train on RedditBias's whole comments with their comment-level labels */
    'reddit-comments': { type: 'boolean', default: false },
    /** which fixture splits to train on (never test): the committed model uses train and dev (decision record 015) */
    'fixture-splits': { type: 'string', default: 'train,dev' },
    /** cross-fitting: leave out fold K of N of every source (foldOf in scripts/lib/crossfit.ts) */
    'holdout-fold': { type: 'string' },
    /** how fixtures fall into folds: whole authors (default) or each item on its own */
    'fold-by': { type: 'string' },
    /** fixed hyper-parameters {"lr","epochs","l2","redditbias_w"}: skips the selection grid (cross-fitting) */
    hyper: { type: 'string' },
    /** word embeddings for the training-time dense blocks (scripts/fetch-embeddings.ts writes them) */
    embeddings: { type: 'string', default: DEFAULT_EMBEDDINGS_DIR },
    'no-embeddings': { type: 'boolean', default: false },
    /** seeds averaged into the final model (its weights are the mean of runs with seeds seed, seed+1, …) */
    ensemble: { type: 'string', default: '5' },
  },
});

const dataDir = resolve(args.data ?? defaultDataDir());
const outPath = resolve(args.out ?? DEFAULT_OUT);
const fixturesDir = resolve(args.fixtures ?? 'test/fixtures/enterprise');
const includeStereoset = args['include-stereoset'] ?? false;
const seed = Number(args.seed);
const useComments = args['reddit-comments'] ?? false;
const fixtureSplits = new Set(args['fixture-splits']!.split(',').map((x) => x.trim()));
if (fixtureSplits.has('test') || fixtureSplits.has('challenge')) throw new Error('train: test and challenge items are never trained on');
const holdout = args['holdout-fold'] ? parseFold(args['holdout-fold']) : null;
const foldBy = parseFoldBy(args['fold-by']);
const embeddings = args['no-embeddings'] ? null : loadEmbeddings(args.embeddings);
if (!embeddings && !args['no-embeddings']) {
  console.error(`train: no word embeddings under ${args.embeddings} (run npm run fetch:embeddings, or pass --no-embeddings); stopping`);
  process.exit(2);
}

/** One training item before feature extraction. `key` groups related items for the dev split. */
interface RawPoint { source: string; key: string; text: string; y: 0 | 1 }
interface RawPair { source: string; key: string; more: string; less: string }
interface RawBag { source: string; key: string; parts: string[]; y: 0 | 1 }

function devOf(key: string): boolean {
  const h = Number.parseInt(createHash('sha256').update(`dev|${key}`).digest('hex').slice(0, 8), 16);
  return h % 100 < 15;
}

// ---- load -----------------------------------------------------------------------------------------

const wanted: DatasetName[] = ['toxigen', 'redditbias', 'bbq', 'winobias', ...(includeStereoset ? (['stereoset'] as const) : [])];
const missing = missingDatasets(dataDir, wanted);
if (missing.length === wanted.length) {
  console.error(`train: no training data found under ${dataDir}. Missing:\n  ${missing.join('\n  ')}\nPass --data DIR.`);
  process.exit(2);
}
for (const m of missing) console.error(`train: WARNING missing dataset ${m}; training without it`);
const have = (n: DatasetName): boolean => wanted.includes(n) && !missing.some((m) => m.startsWith(`${n} `));

const points: RawPoint[] = [];
const pairs: RawPair[] = [];
const bags: RawBag[] = [];
const counts: Record<string, Record<string, number>> = {};
const count = (source: string, what: string): void => {
  const c = (counts[source] ??= {});
  c[what] = (c[what] ?? 0) + 1;
};

if (have('toxigen')) {
  const seen = new Set<string>();
  for (const r of loadSentences(dataDir, 'toxigen')) {
    if (r.split !== 'train' || seen.has(r.text)) continue;
    seen.add(r.text);
    points.push({ source: 'toxigen', key: toxigenKey(r.text), text: r.text, y: r.label === 'biased' ? 1 : 0 });
    count('toxigen', r.label);
  }
}
if (have('redditbias')) {
  // Counterfactual pairs from RedditBias's own lists: a biased phrase should score above the same phrase
  // about the counter-target group ("black people are ..." vs "white people are ...") and above the same
  // phrase with the stereotypical attribute replaced by its counter-attribute.
  const swaps = loadRedditBiasSwaps(dataDir);
  const seenComments = new Set<string>();
  for (const r of loadSentences(dataDir, 'redditbias')) {
    if (r.split !== 'train') continue;
    const comment = (r as unknown as { comment?: string }).comment ?? r.text;
    const key = redditbiasKey(comment);
    points.push({ source: 'redditbias', key, text: r.text, y: r.label === 'biased' ? 1 : 0 });
    count('redditbias', r.label);
    const cl = (r as unknown as { comment_label?: string | null }).comment_label;
    if (useComments && (cl === 'biased' || cl === 'unbiased') && comment !== r.text && !seenComments.has(`${r.group}|${comment}`)) {
      seenComments.add(`${r.group}|${comment}`);
      points.push({ source: 'redditbias_comments', key, text: comment, y: cl === 'biased' ? 1 : 0 });
      count('redditbias_comments', cl);
    }
    if (r.label !== 'biased') continue;
    const t = swapTargets(r.text, swaps.targets[r.group] ?? []);
    if (t) {
      pairs.push({ source: 'redditbias_target_swaps', key, more: r.text, less: t });
      count('redditbias_target_swaps', 'pairs');
    }
    const a = swapAttribute(r.text, swaps.attributes[r.group] ?? []);
    if (a) {
      pairs.push({ source: 'redditbias_attribute_swaps', key, more: r.text, less: a });
      count('redditbias_attribute_swaps', 'pairs');
    }
  }
}
if (have('stereoset')) {
  const byCluster = new Map<string, { stereo?: string; anti?: string }>();
  for (const r of loadSentences(dataDir, 'stereoset')) {
    if (r.split !== 'train' || r.orig_label === 'unrelated') continue;
    const key = `stereoset|${r.cluster_id}`;
    points.push({ source: 'stereoset', key, text: r.text, y: r.orig_label === 'stereotype' ? 1 : 0 });
    count('stereoset', r.orig_label ?? r.label);
    const c = byCluster.get(key) ?? {};
    if (r.orig_label === 'stereotype') c.stereo = r.text;
    else c.anti = r.text;
    byCluster.set(key, c);
  }
  for (const [key, c] of byCluster) {
    if (c.stereo && c.anti) {
      pairs.push({ source: 'stereoset_pairs', key, more: c.stereo, less: c.anti });
      count('stereoset_pairs', 'pairs');
    }
  }
}
if (have('bbq')) {
  const bbqContexts = new Set<string>();
  for (const r of loadBbq(dataDir)) {
    if (r.split !== 'train') continue;
    const t = bbqAnswerTexts(r);
    if (!t) continue;
    const key = `bbq|${r.category}|${r.question_index}`;
    // The ambiguous context alone mentions groups neutrally ("I saw a grandson and their grandfather ..."):
    // a negative example, so that a plain mention of a group is not evidence of bias.
    if (!bbqContexts.has(r.context)) {
      bbqContexts.add(r.context);
      points.push({ source: 'bbq_contexts', key, text: r.context, y: 0 });
      count('bbq_contexts', 'unbiased');
    }
    // The stereotyped answer should score above the "unknown" answer and above the other group's answer.
    pairs.push({ source: 'bbq_pairs', key, more: t.stereotyped, less: t.unknown });
    pairs.push({ source: 'bbq_pairs', key, more: t.stereotyped, less: t.other });
    count('bbq_pairs', 'pairs');
    count('bbq_pairs', 'pairs');
  }
}
if (have('winobias')) {
  for (const p of loadPairs(dataDir, 'winobias')) {
    if (p.split !== 'train') continue;
    pairs.push({ source: 'winobias_pairs', key: `winobias|${p.id}`, more: p.more_biased, less: p.less_biased });
    count('winobias_pairs', 'pairs');
  }
}

// Project fixtures (train split only): JSONL records with at least { id, llm_response | text, biased | label, split }.
function loadFixtures(dir: string, spent = false): RawPoint[] {
  if (!existsSync(dir)) {
    console.error(`train: fixtures folder ${dir} not found; training without project fixtures`);
    return [];
  }
  const out: RawPoint[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as Record<string, unknown>;
      if (typeof r.split !== 'string' || (!spent && !fixtureSplits.has(r.split))) continue;
      const text = (r.llm_response ?? r.text ?? r.response) as string | undefined;
      const label = r.biased ?? r.label ?? r.expected_biased;
      const y = label === true || label === 'biased' || label === 1 ? 1 : label === false || label === 'unbiased' || label === 0 ? 0 : undefined;
      if (typeof text !== 'string' || y === undefined) continue;
      const key = spent ? heldOutSetKey(basename(dir), String(r.id ?? text)) : fixtureKey(String(r.id ?? text));
      const source = spent ? 'held_out_sets' : 'fixtures';
      out.push({ source, key, text, y });
      count(source, y ? 'biased' : 'unbiased');
      // The response as a bag of its sentences (multiple-instance learning, decision record 080): a biased response has
      // at least one biased sentence, a clean one none, and the loss falls on the sentences that score highest.
      const parts = sentencesOf(text);
      if (parts.length > 1) {
        const bagSource = `${spent ? 'held_out_bags' : 'fixture_bags'}${y ? '' : '_clean'}`;
        bags.push({ source: bagSource, key, parts, y });
        count(bagSource, y ? 'biased' : 'unbiased');
      }
      // Every sentence of an unbiased response is itself unbiased (not so for biased responses, where
      // usually one sentence carries the bias): teaches that neutral business sentences score low. Weighted
      // lightly: at full weight they taught that any short text is unbiased (decision record 024).
      if (y === 0) {
        for (const sentence of text.split(/(?<=[.!?])\s+/)) {
          if (sentence.trim().split(/\s+/).length < 4) continue;
          const sentences = spent ? 'held_out_sentences' : 'fixture_sentences';
          out.push({ source: sentences, key, text: sentence, y: 0 });
          count(sentences, 'unbiased');
        }
      }
    }
  }
  return out;
}
points.push(...loadFixtures(fixturesDir));
const spentSetDirs = args['no-spent-sets'] ? [] : (args['spent-sets']?.split(',').map((d) => resolve(d.trim())) ?? CALIBRATION_SETS.map((name) => heldOutSetDir(resolve('.'), name)));
for (const dir of spentSetDirs) {
  if (UNSPENT_SETS.includes(basename(dir)) || ORDINARY_SETS.includes(basename(dir))) throw new Error(`train: ${basename(dir)} is a measurement set; it is read, never trained on`);
  points.push(...loadFixtures(dir, true));
}

// Twins (decision record 019): a fixture and the same response with one clause edited to flip its label (the bias
// removed, or a biased clause put in). As a pair they move only the weights of what differs, the clause that carries
// the bias, so topic words shared by both stop counting as evidence; the twin is also one more labelled point.
// A twin takes its original's grouping key, so it falls in the same dev split and cross-fitting fold.
if (!args['no-twins'] && existsSync(fixturesDir)) {
  for (const t of loadTwinPairs(args.twins!.split(',').map((d) => resolve(d.trim())), loadFixtureRecords(fixturesDir), fixtureSplits, (k) => TAXONOMY_KEYS.has(k))) {
    const key = fixtureKey(t.id);
    // each direction is its own source, so its weight can be set apart (`--source-weights`)
    const suffix = t.twin === 'biased' ? '_biased' : '';
    pairs.push({ source: `twin_pairs${suffix}`, key, more: t.biased, less: t.unbiased });
    count(`twin_pairs${suffix}`, 'pairs');
    points.push({ source: `twin_points${suffix}`, key, text: t.twin === 'biased' ? t.biased : t.unbiased, y: t.twin === 'biased' ? 1 : 0 });
    count(`twin_points${suffix}`, t.twin);
    // The sentences only the biased side has are the clause that carries the bias: positive sentence points, the
    // sentence-level counterpart of the clean sentences above, so the highest-scoring sentence of a long ordinary
    // response learns to be the biased clause and not the register around it.
    for (const clause of biasedClauses(t.biased, t.unbiased)) {
      points.push({ source: 'twin_clauses', key, text: clause, y: 1 });
      count('twin_clauses', 'biased');
    }
  }
}
if (holdout) {
  // cross-fitting: leave out every item (and every pair) whose grouping key falls in the held-out fold
  const keep = <T extends { key: string }>(xs: T[]): T[] => xs.filter((x) => foldOf(foldKey(x.key, foldBy), holdout.n) !== holdout.k);
  points.splice(0, points.length, ...keep(points));
  pairs.splice(0, pairs.length, ...keep(pairs));
  bags.splice(0, bags.length, ...keep(bags));
}

console.log(`train: data ${dataDir}`);
for (const [s, c] of Object.entries(counts)) console.log(`  ${s.padEnd(16)} ${JSON.stringify(c)}`);

// ---- features ---------------------------------------------------------------------------------------

interface Hyper { l2: number; epochs: number; lr: number; sourceWeights: Record<string, number>; features: FeatureConfig }

const BASE_SOURCE_WEIGHTS: Record<string, number> = {
  toxigen: 1, redditbias: 1, stereoset: 1, fixtures: 6, bbq_pairs: 0.5, winobias_pairs: 0.5, stereoset_pairs: 0.5,
  redditbias_target_swaps: 0.5, redditbias_attribute_swaps: 0.5, redditbias_comments: 0.5, bbq_contexts: 0.5, fixture_sentences: 1,
  twin_pairs: 1, twin_points: 1, twin_pairs_biased: 1,
  // spent held-out sets, each by an author the fixtures never saw: 12 edged out 6 on both halves of the split-half
  // test in decision record 023, and 24 gained nothing beyond noise
  held_out_sets: 12, held_out_sentences: 2,
  // a clean response with a clause edited in is a good pair but a poor positive: as points these twins lowered nested
  // CV at 3% from 0.864 to 0.845 (decision record 019)
  twin_points_biased: 0,
  // the biased clause of each twin pair as a sentence, and every fixture and spent-set response as a bag of sentences
  // (decision record 080)
  twin_clauses: 1,
  fixture_bags: 1, held_out_bags: 1, fixture_bags_clean: 1, held_out_bags_clean: 1,
  ...(args['source-weights'] ? (JSON.parse(args['source-weights']) as Record<string, number>) : {}),
};

function build(h: Hyper, excludeDev: boolean): { P: PointExample[]; Q: PairExample[]; B: BagExample[] } {
  const sizes: Record<string, number> = {};
  for (const p of points) if (!excludeDev || !devOf(p.key)) sizes[p.source] = (sizes[p.source] ?? 0) + 1;
  for (const q of pairs) if (!excludeDev || !devOf(q.key)) sizes[q.source] = (sizes[q.source] ?? 0) + 1;
  for (const b of bags) if (!excludeDev || !devOf(b.key)) sizes[b.source] = (sizes[b.source] ?? 0) + 1;
  const avg = Object.values(sizes).reduce((a, b) => a + b, 0) / Math.max(1, Object.keys(sizes).length);
  // Each source contributes about (its weight) x (an average-sized source); small sources are up-weighted, capped at 5x.
  const wOf = (s: string): number => (h.sourceWeights[s] ?? 1) * Math.min(5, avg / (sizes[s] ?? 1));
  const P: PointExample[] = [];
  const Q: PairExample[] = [];
  for (const p of points) {
    if ((excludeDev && devOf(p.key)) || wOf(p.source) === 0) continue;
    P.push({ x: feats(p.text, h.features), y: p.y, weight: wOf(p.source) });
  }
  for (const q of pairs) {
    if ((excludeDev && devOf(q.key)) || wOf(q.source) === 0) continue;
    Q.push({ more: feats(q.more, h.features), less: feats(q.less, h.features), weight: wOf(q.source) });
  }
  const B: BagExample[] = [];
  for (const b of bags) {
    if ((excludeDev && devOf(b.key)) || wOf(b.source) === 0) continue;
    B.push({ parts: b.parts.map((t) => feats(t, h.features)), y: b.y, weight: wOf(b.source) });
  }
  return { P, Q, B };
}

function modelDim(cfg: FeatureConfig): number {
  return (1 << cfg.hashBits) + (embeddings ? 2 * embeddings.dim : 0);
}

const featCache = new Map<string, ReturnType<typeof extractFeatures>>();
function feats(text: string, cfg: FeatureConfig): ReturnType<typeof extractFeatures> {
  const k = `${JSON.stringify(cfg)}\u0000${text}`;
  let f = featCache.get(k);
  if (!f) {
    const raw = extractFeatures(text, cfg);
    const dense = embeddings ? denseFeatures(text, cfg, embeddings, 1 << cfg.hashBits) : { idx: [], val: [] };
    f = { idx: Int32Array.from([...Array.from(raw.idx), ...Array.from(dense.idx)]), val: Float32Array.from([...Array.from(raw.val), ...Array.from(dense.val)]) };
    featCache.set(k, f);
  }
  return f;
}

// ---- dev evaluation ---------------------------------------------------------------------------------

function devMetrics(model: { w: Float64Array; bias: number }, cfg: FeatureConfig): Record<string, number> {
  return devMetricsWith((t) => sigmoid(model.bias + dot(model.w, feats(t, cfg))));
}

function devMetricsWith(score: (t: string) => number): Record<string, number> {
  const out: Record<string, number> = {};
  const bySource = new Map<string, { pos: number[]; neg: number[] }>();
  for (const p of points) {
    if (!devOf(p.key)) continue;
    const b = bySource.get(p.source) ?? { pos: [], neg: [] };
    (p.y ? b.pos : b.neg).push(score(p.text));
    bySource.set(p.source, b);
  }
  // Sources with one class only (e.g. neutral BBQ contexts) have no AUC of their own.
  for (const [s, b] of bySource) if (b.pos.length && b.neg.length) Object.assign(out, metricsSummary(s, b.pos, b.neg));
  const pairScores = new Map<string, [number, number][]>();
  for (const q of pairs) {
    if (!devOf(q.key)) continue;
    const arr = pairScores.get(q.source) ?? [];
    arr.push([score(q.more), score(q.less)]);
    pairScores.set(q.source, arr);
  }
  for (const [s, arr] of pairScores) out[`${s}_pairwise`] = arr.reduce((a, [m, l]) => a + (m > l ? 1 : m === l ? 0.5 : 0), 0) / arr.length;
  // Selection metric: mean of the pointwise AUCs and the WinoBias / BBQ pairwise rates. The RedditBias swap
  // pairs are left out: they are near 1.0 for every setting and would only dilute the mean.
  const keys = Object.keys(out).filter((k) => k.endsWith('_auc') || k === 'winobias_pairs_pairwise' || k === 'bbq_pairs_pairwise');
  out.mean = keys.reduce((a, k) => a + out[k]!, 0) / keys.length;
  return out;
}

function fmt(m: Record<string, number>): string {
  return Object.entries(m)
    .map(([k, v]) => `${k}=${v.toFixed(3)}`)
    .join(' ');
}

const featureConfig: FeatureConfig = { ...DEFAULT_FEATURE_CONFIG, ...(args.features ? (JSON.parse(args.features) as Partial<FeatureConfig>) : {}) };
const base: Hyper = { l2: 1e-5, epochs: 4, lr: 0.1, sourceWeights: BASE_SOURCE_WEIGHTS, features: featureConfig };
const grid: Hyper[] = [];
if (args.hyper) {
  const h = JSON.parse(args.hyper) as { lr?: number; epochs?: number; l2?: number; redditbias_w?: number };
  grid.push({ ...base, lr: h.lr ?? base.lr, epochs: h.epochs ?? base.epochs, l2: h.l2 ?? base.l2, sourceWeights: { ...BASE_SOURCE_WEIGHTS, redditbias: h.redditbias_w ?? 1 } });
} else if (args['no-select']) grid.push(base);
else {
  for (const rb of [1, 2, 3, 4]) {
    for (const lr of [0.05, 0.1, 0.2]) {
      for (const epochs of [4, 8]) grid.push({ ...base, lr, epochs, sourceWeights: { ...BASE_SOURCE_WEIGHTS, redditbias: rb } });
    }
  }
}

// Selection guards on the training dev split (never a test split): RedditBias sits at its 0.80 test floor, so a
// setting that gains enterprise AUC by losing RedditBias dev AUC below the previous model's level (0.824) is only
// taken when no setting meets the guard, and then the one that misses it by least (decision records 014, 015).
const DEV_GUARDS: Record<string, number> = { redditbias_auc: 0.824 };
const guardShortfall = (m: Record<string, number>): number => Object.entries(DEV_GUARDS).reduce((a, [k, min]) => a + Math.max(0, min - (m[k] ?? 1)), 0);
let best: { h: Hyper; m: Record<string, number>; guarded: boolean } | undefined;
if (grid.length > 1) {
  for (const h of grid) {
    const t0 = Date.now();
    const { P, Q, B } = build(h, true);
    const model = trainLinear(P, Q, { dim: modelDim(h.features), epochs: h.epochs, lr: h.lr, l2: h.l2, seed }, B);
    const m = devMetrics(model, h.features);
    console.log(`dev redditbias_w=${h.sourceWeights.redditbias} epochs=${h.epochs} lr=${h.lr} (${Date.now() - t0} ms): ${fmt(m)}`);
    const guarded = Object.entries(DEV_GUARDS).every(([k, min]) => (m[k] ?? 1) >= min);
    // Among settings that meet the guards, the best mean wins; when none does, the one closest to meeting them.
    const better = !best || (guarded && !best.guarded) || (guarded === best.guarded && (guarded ? m.mean! > best.m.mean! : guardShortfall(m) < guardShortfall(best.m)));
    if (better) best = { h, m, guarded };
  }
} else best = { h: grid[0]!, m: {}, guarded: true };

const chosen = best!.h;
console.log(`train: chosen ${JSON.stringify({ l2: chosen.l2, epochs: chosen.epochs, lr: chosen.lr, redditbias_w: chosen.sourceWeights.redditbias })}; training on all train data`);
const { P, Q, B } = build(chosen, false);
// SGD runs with different seeds disagree on held-out text (out-of-fold recall at 3% FPR 0.67–0.74 for three seeds);
// the model is linear, so the mean of their weights scores every text with the mean of their logits at no cost at
// run time (decision record 016).
const ensemble = Number(args.ensemble);
const model = trainLinear(P, Q, { dim: modelDim(chosen.features), epochs: chosen.epochs, lr: chosen.lr, l2: chosen.l2, seed }, B);
for (let k = 1; k < ensemble; k++) {
  const other = trainLinear(P, Q, { dim: modelDim(chosen.features), epochs: chosen.epochs, lr: chosen.lr, l2: chosen.l2, seed: seed + k }, B);
  for (let i = 0; i < model.w.length; i++) model.w[i]! += other.w[i]!;
  model.bias += other.bias;
}
if (ensemble > 1) {
  for (let i = 0; i < model.w.length; i++) model.w[i]! /= ensemble;
  model.bias /= ensemble;
}
// The dense embedding weights become per-word hashed weights; the committed model has no dense part.
const hashed = new Float64Array(model.w.subarray(0, 1 << chosen.features.hashBits));
const folded = embeddings ? foldEmbeddings(Float64Array.from(model.w), chosen.features, embeddings, 1 << chosen.features.hashBits) : null;
if (folded) hashed.set(folded.w.subarray(0, 1 << chosen.features.hashBits));

const training = {
  ...(embeddings ? { embeddings: { source: embeddings.source, words: embeddings.words.length, dim: embeddings.dim, folded_words: folded!.words } } : { embeddings: null }),
  trained_at_commit_of_data: dataDir.endsWith('shared/data') ? '../shared/data' : dataDir,
  sources: counts,
  include_stereoset: includeStereoset,
  excluded: ['crows_pairs (authors forbid training)', 'every test split', ...(includeStereoset ? [] : ['stereoset (CC BY-SA 4.0)'])],
  dev_split: '15% of train by grouping key: sha256("dev|" + key) % 100 < 15',
  seed,
  ensemble,
  fixture_splits: [...fixtureSplits],
  spent_sets: spentSetDirs.map((d) => basename(d)),
  ...(holdout ? { holdout_fold: `${holdout.k}/${holdout.n}`, fold_by: foldBy } : {}),
  hyper: { l2: chosen.l2, epochs: chosen.epochs, lr: chosen.lr, source_weights: chosen.sourceWeights },
  dev_metrics: best!.m,
  dev_guards: DEV_GUARDS,
};
const draft = encodeWeights({ version: '', features: chosen.features, bias: model.bias, w: hashed }, training);
const digest = createHash('sha256').update(draft.weights).update(String(draft.bias)).update(String(draft.scale)).digest('hex');
const version = `lr-hashed-${digest.slice(0, 12)}`;
const file = { ...draft, version };
// Quantisation check: the same dev items scored with the float weights and with the int8 weights.
{
  const q = decodeWeights(file);
  const asFloat = devMetrics(model, chosen.features);
  const asInt8 = devMetricsWith((t) => scoreWith(q, t));
  const drift = Math.max(...Object.keys(asFloat).map((k) => Math.abs(asFloat[k]! - (asInt8[k] ?? Number.NaN))));
  console.log(`train: int8 quantisation: max |float - int8| over dev metrics (final model) = ${drift.toFixed(4)}`);
  (training as Record<string, unknown>).int8_max_metric_drift = Number(drift.toFixed(4));
}
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, `${JSON.stringify(file)}\n`);
console.log(`train: wrote ${outPath} (${(Buffer.byteLength(JSON.stringify(file)) / 1024).toFixed(0)} KiB), version ${version}`);
if (outPath === resolve(DEFAULT_OUT)) {
  writeFileSync(
    resolve(VERSION_TS),
    `// Written by scripts/train.ts: the weights version the code expects (checked at load and by a unit test).\nexport const CLASSIFIER_VERSION = '${version}';\n`,
  );
  console.log(`train: wrote ${VERSION_TS}`);
}
