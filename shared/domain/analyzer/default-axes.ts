// The committed demographic-axis models (classifier/axes.json, decision record 017), decoded once on first use.
import axesJson from './classifier/axes.json' with { type: 'json' };
import { axisPredictorFrom, type AxisModelsFile, type AxisPredictor } from './classifier/axes';

let cached: AxisPredictor | undefined;

export function loadDefaultAxisPredictor(): AxisPredictor {
  cached ??= axisPredictorFrom(axesJson as unknown as AxisModelsFile);
  return cached;
}
