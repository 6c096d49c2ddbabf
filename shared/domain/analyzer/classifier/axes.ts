// Demographic-axis models (decision record 017): which group a detected response is about when no group mention in
// it says so. One linear model per taxonomy axis over the classifier's hashed features at 2^16 buckets, trained by
// `npm run train:axes` on the biased enterprise fixtures and committed in axes.json.
import type { Axis } from '../groups';
import { DEFAULT_FEATURE_CONFIG, extractFeatures, type FeatureConfig } from './features';
import { decodeWeights, dot, sigmoid, type LinearModel, type WeightsFile } from './model';

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
  predict(text: string): { axis: Axis; p: number }[];
}

export function axisPredictorFrom(file: AxisModelsFile): AxisPredictor {
  if (file.format !== 'bias-monitor/axis-models/v1') throw new Error(`unknown axis models format ${String(file.format)}`);
  const models = Object.entries(file.models).map(([axis, w]) => [axis as Axis, decodeWeights(w)] as [Axis, LinearModel]);
  if (models.some(([, m]) => m.features.hashBits !== AXIS_FEATURES.hashBits)) throw new Error('axis models: feature configuration differs from AXIS_FEATURES');
  return {
    version: file.version,
    predict(text) {
      // all models share the feature configuration: one feature walk, nine dot products
      const f = extractFeatures(text, AXIS_FEATURES);
      return models
        .map(([axis, m]) => ({ axis, p: Math.round(sigmoid(m.bias + m.scale * dot(m.w, f)) * 1e4) / 1e4 }))
        .filter((x) => x.p >= file.threshold)
        .sort((a, b) => b.p - a.p);
    },
  };
}
