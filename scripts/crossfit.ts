// npm run crossfit -- [--data DIR] [--folds N] [--jobs J] [--fold-by author|item] [--score-only]
// Cross-fitting (decision record 015). Trains the classifier N times with the committed model's hyper-parameters,
// each time leaving out one fold of its training items (every source, by grouping key), and scores every pooled
// enterprise fixture (train + dev) and every ToxiGen / RedditBias train sentence with the model that never saw it. Writes the out-of-fold decision features to .cache/crossfit/oof.json, from
// which `npm run eval -- --fit-decision` fits the decision model (scripts/lib/decision-fit.ts).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createAnalyzerSync } from '../shared/domain/analyzer';
import { classifierFromModel } from '../shared/domain/analyzer/classifier';
import { decodeWeights, type WeightsFile } from '../shared/domain/analyzer/classifier/model';
import weightsJson from '../shared/domain/analyzer/classifier/weights.json' with { type: 'json' };
import { CROSSFIT_FOLDS, fixtureKey, foldKey, foldOf, heldOutSetKey, parseFoldBy, publicTrainRows } from './lib/crossfit';
import { defaultDataDir } from './lib/datasets';
import { calibrationRow, decisionRow, type DecisionRow } from './lib/decision-fit';
import { loadFixtures } from './lib/fixtures';
import { heldOutSetDir, loadHeldOutSet } from './lib/held-out-sets';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    folds: { type: 'string', default: String(CROSSFIT_FOLDS) },
    jobs: { type: 'string', default: '2' },
    fixtures: { type: 'string', default: 'test/fixtures/enterprise' },
    /** extra arguments for every fold's scripts/train.ts run, e.g. '--no-embeddings' (experiments) */
    'train-args': { type: 'string', default: '' },
    out: { type: 'string', default: 'oof.json' },
    /** fixtures fall into folds by author (default, decision record 016) or item by item (experiments) */
    'fold-by': { type: 'string', default: 'author' },
    /** pooled fixture splits; default: the splits the committed weights were trained on */
    'fixture-splits': { type: 'string' },
    /** score with the fold models already under .cache/crossfit instead of training them (a decision-feature change) */
    'score-only': { type: 'boolean', default: false },
  },
});
const folds = Number(values.folds);
const foldBy = parseFoldBy(values['fold-by']);
const dir = resolve('.cache/crossfit');
mkdirSync(dir, { recursive: true });
const training = (weightsJson as unknown as { training?: { hyper?: { lr: number; epochs: number; l2: number; source_weights?: Record<string, number> }; fixture_splits?: string[]; ensemble?: number; spent_sets?: string[] } }).training;
const h = training?.hyper;
if (!h) throw new Error('crossfit: the committed weights carry no training.hyper; run npm run train first');
const splits = values['fixture-splits']?.split(',') ?? training?.fixture_splits ?? ['train'];
const hyper = JSON.stringify({ lr: h.lr, epochs: h.epochs, l2: h.l2, redditbias_w: h.source_weights?.redditbias ?? 1 });
// Fold models train on the spent sets the committed model trained on (decision record 023), as on its splits and hyper.
const spent = training?.spent_sets ?? [];
const spentSetArgs = spent.length ? ['--spent-sets', spent.map((name) => heldOutSetDir('.', name)).join(',')] : ['--no-spent-sets'];

function trainFold(k: number): Promise<void> {
  const args = ['tsx', 'scripts/train.ts', '--hyper', hyper, '--ensemble', String(training?.ensemble ?? 1), '--holdout-fold', `${k}/${folds}`, '--fold-by', foldBy, '--fixture-splits', splits.join(','), ...spentSetArgs, '--out', join(dir, `fold-${k}.json`), ...(values.data ? ['--data', values.data] : []), ...values['train-args']!.split(' ').filter(Boolean)];
  return new Promise((ok, fail) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`train fold ${k} exited ${code}`))));
  });
}

const t0 = Date.now();
if (values['score-only']) console.log(`crossfit: scoring with the ${folds} fold models under ${dir}`);
else {
  const queue = Array.from({ length: folds }, (_, k) => k);
  await Promise.all(Array.from({ length: Number(values.jobs) }, async () => {
    for (let k = queue.shift(); k !== undefined; k = queue.shift()) await trainFold(k);
  }));
  console.log(`crossfit: trained ${folds} fold models (${splits.join('+')} fixtures, hyper ${hyper}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const pool = loadFixtures(resolve(values.fixtures!)).filter((f) => splits.includes(f.split));
const publicRows = publicTrainRows(resolve(values.data ?? defaultDataDir()));
// The spent held-out sets are trained on (decision record 023), so the threshold is chosen on their out-of-fold scores:
// each response is scored by the fold model that left its whole set out.
const spentRows = spent.flatMap((name) => loadHeldOutSet(resolve('.'), name).map((r) => ({ set: name, r })));
const rows: DecisionRow[] = [];
const calibrationRows: (DecisionRow & { set: string; forced: boolean })[] = [];
for (let k = 0; k < folds; k++) {
  const model = decodeWeights(JSON.parse(readFileSync(join(dir, `fold-${k}.json`), 'utf8')) as WeightsFile);
  const analyzer = createAnalyzerSync({ classifier: classifierFromModel(model) });
  for (const f of pool) {
    if (foldOf(foldKey(fixtureKey(f.id), foldBy), folds) !== k) continue;
    rows.push({ id: f.id, source: 'fixtures', fold: k, y: f.label === 'biased' ? 1 : 0, hard_negative: f.hard_negative, x: decisionRow(analyzer, f.llm_response, f.original_query) });
  }
  for (const { set, r } of spentRows) {
    if (foldOf(foldKey(heldOutSetKey(set, r.id), foldBy), folds) !== k) continue;
    const { x, forced } = calibrationRow(analyzer, r.llm_response, r.original_query);
    calibrationRows.push({ id: `${set}/${r.id}`, set, source: 'held_out_sets', fold: k, y: r.label === 'biased' ? 1 : 0, hard_negative: r.hard_negative, x, forced });
  }
  for (const r of publicRows) {
    if (foldOf(r.key, folds) !== k) continue;
    rows.push({ id: r.key, source: r.source, fold: k, y: r.y, hard_negative: false, x: decisionRow(analyzer, r.text, '') });
  }
}
writeFileSync(join(dir, values.out!), JSON.stringify({ folds, fold_by: foldBy, splits, hyper: JSON.parse(hyper), classifier: (weightsJson as { version: string }).version, rows, calibration_rows: calibrationRows }));
console.log(`crossfit: ${rows.length} out-of-fold rows and ${calibrationRows.length} out-of-fold rows of spent held-out sets written to ${join(dir, values.out!)}`);
