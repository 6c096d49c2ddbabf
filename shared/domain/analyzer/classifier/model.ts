// Linear model over hashed features: P(biased) = sigmoid(bias + w·x). Weights are stored quantised to
// int8 (one shared scale) and base64-encoded in weights.json (decision record 020).
import { blockValue, DEFAULT_FEATURE_CONFIG, N_BLOCKS, walkFeatures, type Block, type FeatureConfig, type Features } from './features';

export interface WeightsFile {
  format: 'bias-monitor/linear-hashed/v1';
  version: string;
  features: FeatureConfig;
  bias: number;
  scale: number;
  /** base64 of an Int8Array of length 2^hashBits; weight = value * scale */
  weights: string;
  /** provenance written by scripts/train.ts (data, splits, hyper-parameters, metrics) */
  training: Record<string, unknown>;
}

export interface LinearModel {
  version: string;
  features: FeatureConfig;
  bias: number;
  /** weights as int8 codes times `scale` (runtime), or plain floats with scale 1 (training) */
  w: Int8Array | Float32Array | Float64Array;
  scale: number;
}

export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

export function dot(w: ArrayLike<number>, f: Features): number {
  let s = 0;
  for (let i = 0; i < f.idx.length; i++) s += w[f.idx[i]!]! * f.val[i]!;
  return s;
}

/** Streaming scorer: sums signed weights per block without materialising the feature vector. */
export function logit(model: LinearModel, text: string): number {
  return logitOfSums(model, blockSums(model, text));
}

/** Per-block signed weight sums and feature counts of a text; additive over texts whose sentences do not
 * cross (the features never cross a sentence boundary), so a passage's logit is the logit of its summed parts. */
export interface BlockSums {
  sums: number[];
  counts: number[];
}

export function blockSums(model: LinearModel, text: string): BlockSums {
  const sums = new Array<number>(N_BLOCKS).fill(0);
  const counts = new Array<number>(N_BLOCKS).fill(0);
  const mask = (1 << model.features.hashBits) - 1;
  const w = model.w;
  walkFeatures(text, model.features, (b, h) => {
    const x = w[h & mask]!;
    sums[b] = sums[b]! + (h & 0x80000000 ? -x : x);
    counts[b] = counts[b]! + 1;
  });
  return { sums, counts };
}

export function logitOfSums(model: LinearModel, s: BlockSums): number {
  let z = 0;
  for (let b = 0; b < N_BLOCKS; b++) if (s.counts[b]) z += s.sums[b]! * blockValue(model.features, b as Block, s.counts[b]!);
  return model.bias + z * model.scale;
}

/** Scores each part and the concatenation of the parts in one feature walk per part. Equal to scoring the
 * joined text when every part ends at a classifier sentence boundary (see sentenceTokens). */
export function scoreParts(model: LinearModel, parts: readonly string[]): { parts: number[]; whole: number } {
  const total: BlockSums = { sums: new Array<number>(N_BLOCKS).fill(0), counts: new Array<number>(N_BLOCKS).fill(0) };
  const scores = parts.map((t) => {
    const s = blockSums(model, t);
    for (let b = 0; b < N_BLOCKS; b++) {
      total.sums[b]! += s.sums[b]!;
      total.counts[b]! += s.counts[b]!;
    }
    return sigmoid(logitOfSums(model, s));
  });
  return { parts: scores, whole: sigmoid(logitOfSums(model, total)) };
}

export function scoreWith(model: LinearModel, text: string): number {
  return sigmoid(logit(model, text));
}

/** Quantise float weights to int8 with one scale (max |w| / 127). */
export function quantize(w: ArrayLike<number>): { q: Int8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < w.length; i++) max = Math.max(max, Math.abs(w[i]!));
  const scale = max > 0 ? max / 127 : 1;
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.round(w[i]! / scale);
  return { q, scale };
}

function base64ToBytes(b64: string): Uint8Array {
  const B = (globalThis as { Buffer?: { from(s: string, enc: string): Uint8Array } }).Buffer;
  if (B) return new Uint8Array(B.from(b64, 'base64'));
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function bytesToBase64(bytes: Uint8Array): string {
  const B = (globalThis as { Buffer?: { from(b: Uint8Array): { toString(enc: string): string } } }).Buffer;
  if (B) return B.from(bytes).toString('base64');
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]!);
  return btoa(bin);
}

export function decodeWeights(file: WeightsFile): LinearModel {
  if (file.format !== 'bias-monitor/linear-hashed/v1') throw new Error(`unknown weights format ${String(file.format)}`);
  const bytes = base64ToBytes(file.weights);
  const dim = 1 << file.features.hashBits;
  if (bytes.length !== dim) throw new Error(`weights length ${bytes.length} != 2^${file.features.hashBits}`);
  const w = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  return { version: file.version, features: { ...DEFAULT_FEATURE_CONFIG, group: 0, ...file.features }, bias: file.bias, w, scale: file.scale };
}

export function encodeWeights(
  model: { version: string; features: FeatureConfig; bias: number; w: ArrayLike<number> },
  training: Record<string, unknown>,
): WeightsFile {
  const { q, scale } = quantize(model.w);
  return {
    format: 'bias-monitor/linear-hashed/v1',
    version: model.version,
    features: model.features,
    bias: model.bias,
    scale,
    weights: bytesToBase64(new Uint8Array(q.buffer, q.byteOffset, q.length)),
    training,
  };
}
