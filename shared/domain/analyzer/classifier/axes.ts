// Demographic-axis models (decision record 017): which group a detected response is about when no group mention in
// it says so, or that it is profit-over-sustainability advice. One linear model per taxonomy axis and one for the
// domain key, over the classifier's hashed features at 2^16 buckets; trained by `npm run train:axes` on the biased
// enterprise fixtures and committed in axes.json.
import { AXES } from '../groups';
import { blockValue, DEFAULT_FEATURE_CONFIG, N_BLOCKS, walkFeatures, type Block, type FeatureConfig } from './features';
import { decodeWeights, sigmoid, type LinearModel, type WeightsFile } from './model';

/** The slot of a report's bias_type before the kind of bias: a demographic axis, or the domain key. */
export const AXIS_KEYS = [...AXES, 'domain_profit_over_sustainability'] as const;
export type AxisKey = (typeof AXIS_KEYS)[number];

export const AXIS_FEATURES: FeatureConfig = { ...DEFAULT_FEATURE_CONFIG, hashBits: 16 };
/** An axis is named when its model gives at least this probability: the lowest of 0.5 / 0.6 / 0.7 / 0.8 whose
 * named axes were right at least 80% of the time on dev, with the models fitted on train (`npm run train:axes -- --eval`). */
export const AXIS_THRESHOLD = 0.6;

export interface AxisModelsFile {
  format: 'bias-monitor/axis-models/v1';
  version: string;
  threshold: number;
  training: Record<string, unknown>;
  models: Record<string, WeightsFile>;
}

export interface AxisPredictor {
  version: string;
  /** axes at or above the threshold, most probable first */
  predict(text: string): { axis: AxisKey; p: number }[];
}

export function axisPredictorFrom(file: AxisModelsFile): AxisPredictor {
  if (file.format !== 'bias-monitor/axis-models/v1') throw new Error(`unknown axis models format ${String(file.format)}`);
  const decoded = Object.entries(file.models).map(([axis, w]) => [axis as AxisKey, decodeWeights(w)] as [AxisKey, LinearModel]);
  if (decoded.some(([, m]) => m.features.hashBits !== AXIS_FEATURES.hashBits)) throw new Error('axis models: feature configuration differs from AXIS_FEATURES');
  // the models' weights of a bucket side by side: one cache line per feature instead of one per model; only the
  // interleaved copy is kept
  const k = decoded.length;
  const mask = (1 << AXIS_FEATURES.hashBits) - 1;
  const interleaved = new Int8Array((mask + 1) * k);
  decoded.forEach(([, m], j) => {
    for (let i = 0; i <= mask; i++) interleaved[i * k + j] = m.w[i]!;
  });
  const models = decoded.map(([axis, m]) => ({ axis, bias: m.bias, scale: m.scale }));
  return {
    version: file.version,
    predict(text) {
      // One feature walk for all models (they share the feature configuration): per model and block, the
      // signed weight sums, as the classifier's streaming scorer keeps them for one model.
      const sums = new Float64Array(k * N_BLOCKS);
      const counts = new Array<number>(N_BLOCKS).fill(0);
      walkFeatures(text, AXIS_FEATURES, (b, h) => {
        const at = (h & mask) * k;
        const neg = h & 0x80000000;
        for (let m = 0; m < k; m++) {
          const x = interleaved[at + m]!;
          sums[m * N_BLOCKS + b]! += neg ? -x : x;
        }
        counts[b] = counts[b]! + 1;
      });
      return models
        .map(({ axis, bias, scale }, m) => {
          let z = 0;
          for (let b = 0; b < N_BLOCKS; b++) if (counts[b]) z += sums[m * N_BLOCKS + b]! * blockValue(AXIS_FEATURES, b as Block, counts[b]!);
          return { axis, p: Math.round(sigmoid(bias + z * scale) * 1e4) / 1e4 };
        })
        .filter((x) => x.p >= file.threshold)
        .sort((a, b) => b.p - a.p);
    },
  };
}
