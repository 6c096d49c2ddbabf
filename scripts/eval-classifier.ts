// npx tsx scripts/eval-classifier.ts [--data DIR] [--weights FILE]
// Public-dataset evaluation (test splits) of the learned classifier alone. Without --weights it uses the
// committed weights through loadClassifier(); with --weights it evaluates another weights file.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadClassifier } from '../shared/domain/analyzer/classifier';
import { decodeWeights, scoreWith, type WeightsFile } from '../shared/domain/analyzer/classifier/model';
import { defaultDataDir, missingDatasets } from './lib/datasets';
import { evalPublic, PUBLIC_EVAL_DATASETS, resultsTable } from './lib/eval-public';

const { values: args } = parseArgs({ options: { data: { type: 'string' }, weights: { type: 'string' } } });
const dataDir = resolve(args.data ?? defaultDataDir());
const missing = missingDatasets(dataDir, PUBLIC_EVAL_DATASETS);
if (missing.length === PUBLIC_EVAL_DATASETS.length) {
  console.error(`eval-classifier: no datasets under ${dataDir}. Missing:\n  ${missing.join('\n  ')}\nPass --data DIR.`);
  process.exit(2);
}
let score: (t: string) => number;
let version: string;
if (args.weights) {
  const model = decodeWeights(JSON.parse(readFileSync(resolve(args.weights), 'utf8')) as WeightsFile);
  score = (t) => scoreWith(model, t);
  version = model.version;
} else {
  const clf = loadClassifier();
  score = (t) => clf.score(t);
  version = clf.version;
}
const t0 = performance.now();
const results = await evalPublic(score, dataDir);
console.log(`learned classifier ${version}, data ${dataDir} (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
console.log(resultsTable(results));
