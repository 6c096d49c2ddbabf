// Word embeddings as a training-time feature block (decision record 015). Two dense blocks of D dimensions: the
// sum of the vectors of every word (scaled like the unigram block) and of every word that follows a group word
// (scaled like the group-context block). Because the model is linear, a trained dense weight u turns into one
// scalar u·v per word, which `foldEmbeddings` adds to that word's unigram and "G … word" hashed weights: the
// committed model keeps its format and runtime cost, and words never seen in training still get a weight from
// their neighbours in embedding space ("inherently" near "naturally").
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockValue, walkFeatures, type Block, type FeatureConfig, type Features } from '../../shared/domain/analyzer/classifier/features';

export interface Embeddings {
  dim: number;
  words: string[];
  index: Map<string, number>;
  /** unit-length vectors, row-major */
  vectors: Float32Array;
  source: string;
}

export const DEFAULT_EMBEDDINGS_DIR = '.cache/embeddings';

/** Reads words.txt + vectors.f32 written by scripts/fetch-embeddings.ts; null when absent. */
export function loadEmbeddings(dir = DEFAULT_EMBEDDINGS_DIR): Embeddings | null {
  const wf = join(dir, 'words.txt');
  const vf = join(dir, 'vectors.f32');
  if (!existsSync(wf) || !existsSync(vf)) return null;
  const words = readFileSync(wf, 'utf8').split('\n').filter(Boolean);
  const buf = readFileSync(vf);
  const vectors = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const dim = vectors.length / words.length;
  if (!Number.isInteger(dim)) throw new Error(`embeddings: ${vf} does not hold ${words.length} whole vectors`);
  const meta = join(dir, 'SOURCE');
  return { dim, words, index: new Map(words.map((w, i) => [w, i])), vectors, source: existsSync(meta) ? readFileSync(meta, 'utf8').trim() : dir };
}

const UNIGRAM: Block = 0;
const GROUP: Block = 5;
const GROUP_PREDICATE = 'G … ';

/** The two dense blocks of a text, as sparse entries at indices base .. base + 2·dim − 1. */
export function denseFeatures(text: string, cfg: FeatureConfig, emb: Embeddings, base: number): Features {
  const d = emb.dim;
  const acc = new Float64Array(2 * d);
  let nUni = 0;
  let nGroup = 0;
  const add = (word: string, off: number) => {
    const i = emb.index.get(word);
    if (i === undefined) return;
    for (let k = 0; k < d; k++) acc[off + k]! += emb.vectors[i * d + k]!;
  };
  walkFeatures(
    text,
    cfg,
    (b, _h, name) => {
      if (b === UNIGRAM) {
        nUni++;
        add(name!, 0);
      } else if (b === GROUP) {
        nGroup++;
        if (name!.startsWith(GROUP_PREDICATE)) add(name!.slice(GROUP_PREDICATE.length), d);
      }
    },
    true,
  );
  const vu = cfg.unigram ? blockValue(cfg, UNIGRAM, nUni) : 0;
  const vg = cfg.group ? blockValue(cfg, GROUP, nGroup) : 0;
  const idx: number[] = [];
  const val: number[] = [];
  for (let k = 0; k < 2 * d; k++) {
    const v = acc[k]! * (k < d ? vu : vg);
    if (v !== 0) {
      idx.push(base + k);
      val.push(v);
    }
  }
  return { idx, val };
}

/** Hashed index and sign of a word's unigram and "G … word" features, as the feature walk computes them. */
function wordFeatureHashes(word: string, cfg: FeatureConfig): { uni?: number; group?: number } {
  const out: { uni?: number; group?: number } = {};
  // A one-word sentence after a group word yields exactly these two features.
  walkFeatures(`women ${word}`, { ...cfg, bigram: 0, chars: 0, pairs: 0, winobias: 0 }, (b, h, name) => {
    if (b === UNIGRAM && name === word) out.uni = h;
    if (b === GROUP && name === `${GROUP_PREDICATE}${word}`) out.group = h;
  }, true);
  return out;
}

/** Adds u·v of every vocabulary word into its hashed unigram and group-predicate weights (w is modified). */
export function foldEmbeddings(w: Float64Array, cfg: FeatureConfig, emb: Embeddings, base: number): { w: Float64Array; words: number } {
  const d = emb.dim;
  const mask = (1 << cfg.hashBits) - 1;
  let words = 0;
  for (let i = 0; i < emb.words.length; i++) {
    const word = emb.words[i]!;
    let su = 0;
    let sg = 0;
    for (let k = 0; k < d; k++) {
      su += w[base + k]! * emb.vectors[i * d + k]!;
      sg += w[base + d + k]! * emb.vectors[i * d + k]!;
    }
    const h = wordFeatureHashes(word, cfg);
    if (h.uni !== undefined) w[h.uni & mask]! += h.uni & 0x80000000 ? -su : su;
    if (h.group !== undefined) w[h.group & mask]! += h.group & 0x80000000 ? -sg : sg;
    words++;
  }
  return { w, words };
}
