// npm run train:axes -- [--fixtures DIR] [--eval] [--seed N]
// Trains the demographic-axis models (decision record 017): one small linear model per taxonomy axis (and the domain
// key domain_profit_over_sustainability) over the
// classifier's hashed features (2^16 buckets), fitted on the BIASED enterprise fixtures of train + dev with their
// expected axes as labels. They name the group a detected response is about when no group mention does (proxies:
// postcodes, names, "family commitments"). `--eval` fits on train only, reports on dev and writes nothing.
// Deterministic: same fixtures + seed -> byte-identical file.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AXIS_FEATURES, AXIS_KEYS, AXIS_THRESHOLD, type AxisKey, type AxisModelsFile } from '../shared/domain/analyzer/classifier/axes';
import { extractFeatures } from '../shared/domain/analyzer/classifier/features';
import { dot, encodeWeights, sigmoid } from '../shared/domain/analyzer/classifier/model';
import { trainLinear, type PointExample } from '../shared/domain/analyzer/classifier/trainer';
import { loadFixtures, rocAuc, type Fixture } from './lib/fixtures';

const OUT = 'shared/domain/analyzer/classifier/axes.json';
const { values } = parseArgs({
  options: {
    fixtures: { type: 'string', default: 'test/fixtures/enterprise' },
    eval: { type: 'boolean', default: false },
    seed: { type: 'string', default: '20261124' },
  },
});
const seed = Number(values.seed);
const HYPER = { epochs: 8, lr: 0.1, l2: 1e-5 };

const all = loadFixtures(resolve(values.fixtures!)).filter((f) => f.label === 'biased');
const fitOn = all.filter((f) => (values.eval ? f.split === 'train' : f.split === 'train' || f.split === 'dev'));
const feats = new Map<string, ReturnType<typeof extractFeatures>>();
const featuresOf = (t: string) => {
  let f = feats.get(t);
  if (!f) feats.set(t, (f = extractFeatures(t, AXIS_FEATURES)));
  return f;
};

function fit(axis: string, items: Fixture[]): { w: Float64Array; bias: number } {
  const pos = items.filter((f) => f.expected_bias_type.includes(axis)).length;
  // positives and negatives weigh the same in total, so rare axes are not drowned
  const wPos = items.length / (2 * Math.max(1, pos));
  const wNeg = items.length / (2 * Math.max(1, items.length - pos));
  const P: PointExample[] = items.map((f) => {
    const y = f.expected_bias_type.includes(axis) ? 1 : 0;
    return { x: featuresOf(f.llm_response), y, weight: y ? wPos : wNeg };
  });
  return trainLinear(P, [], { dim: 1 << AXIS_FEATURES.hashBits, ...HYPER, seed });
}

const models = new Map(AXIS_KEYS.map((a) => [a, fit(a, fitOn)] as const));

if (values.eval) {
  const dev = all.filter((f) => f.split === 'dev');
  const prob = (a: AxisKey, t: string) => sigmoid(models.get(a)!.bias + dot(models.get(a)!.w, featuresOf(t)));
  let exact = 0;
  let predicted = 0;
  let right = 0;
  const expectedAxes = (f: Fixture) => f.expected_bias_type.filter((t) => (AXIS_KEYS as readonly string[]).includes(t));
  for (const f of dev) {
    const got: string[] = AXIS_KEYS.filter((a) => prob(a, f.llm_response) >= AXIS_THRESHOLD);
    const exp = expectedAxes(f);
    if (exp.every((a) => got.includes(a))) exact++;
    predicted += got.length;
    right += got.filter((a) => exp.includes(a)).length;
  }
  console.log(`dev (${dev.length} biased): every expected axis predicted ${(exact / dev.length).toFixed(3)}; precision of predicted axes ${(right / Math.max(1, predicted)).toFixed(3)} (${predicted} predicted)`);
  for (const a of AXIS_KEYS) {
    const p = dev.filter((f) => f.expected_bias_type.includes(a)).map((f) => prob(a, f.llm_response));
    const n = dev.filter((f) => !f.expected_bias_type.includes(a)).map((f) => prob(a, f.llm_response));
    console.log(`  ${a.padEnd(20)} AUC ${rocAuc(p, n).toFixed(3)}  recall@${AXIS_THRESHOLD} ${(p.filter((x) => x >= AXIS_THRESHOLD).length / Math.max(1, p.length)).toFixed(3)}  n+ ${p.length}`);
  }
} else {
  const encoded = Object.fromEntries(AXIS_KEYS.map((a) => [a, encodeWeights({ version: '', features: AXIS_FEATURES, bias: models.get(a)!.bias, w: models.get(a)!.w }, {})]));
  const digest = createHash('sha256').update(JSON.stringify({ threshold: AXIS_THRESHOLD, encoded })).digest('hex').slice(0, 12);
  const file: AxisModelsFile = {
    format: 'bias-monitor/axis-models/v1',
    version: `axes-${digest}`,
    threshold: AXIS_THRESHOLD,
    training: { fixtures: `${fitOn.length} biased responses of fixture train + dev`, seed, hyper: HYPER, class_balance: 'equal total weight for positives and negatives per axis' },
    models: encoded,
  };
  writeFileSync(resolve(OUT), `${JSON.stringify(file)}\n`);
  console.log(`train:axes: wrote ${OUT} (${(Buffer.byteLength(JSON.stringify(file)) / 1024).toFixed(0)} KiB), version ${file.version}`);
}
