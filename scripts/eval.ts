// npm run eval [-- --data DIR] [--only fixtures|public] [--errors train|dev|dev-variants] [--calibrate] [--fit-fusion] [--challenge DIR]
// [--no-challenge] [--dev-variants DIR]
// Evaluates the analyzer on the project's enterprise fixtures (train/dev/test splits) and, through the
// classifier work's scripts/lib/eval-public.ts, on the public datasets' test splits. Figures go to
// docs/EVALUATION.md. `--calibrate` refits the Platt scaling on the fixture DEV split and writes
// shared/domain/analyzer/calibration.json (decision record 011).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createAnalyzerSync, type Analyzer } from '../shared/domain/analyzer';
import { loadDefaultClassifier } from '../shared/domain/analyzer/default-classifier';
import { FUSION_FEATURES, type Calibration, type Fusion } from '../shared/domain/analyzer/report';
import { fitLogistic, fusionRow, publicTrainRows, toFusion, type FusionRow } from './lib/eval-fusion';
import { TAXONOMY_KEYS } from '../shared/domain/taxonomy';
import { z } from 'zod';
import { Fixture, fitPlatt, loadFixtures, rocAuc } from './lib/fixtures';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const MECHANISMS = new Set(['stereotype', 'representation', 'language', 'toxicity', 'sentiment_disparity']);

type AnyFixture = Omit<Fixture, 'split'> & { split: string };
interface Scored {
  f: AnyFixture;
  p: number;
  raw: number;
  fused?: number;
  detected: boolean;
  types: string[];
}

function score(analyzer: Analyzer, fixtures: AnyFixture[]): Scored[] {
  return fixtures.map((f) => {
    const r = analyzer.analyzeSync({ llm_response: f.llm_response, original_query: f.original_query });
    const s = r.bias_report_summary as { overall_score: number; raw_score: number; fused_raw_score?: number };
    return { f, p: s.overall_score, raw: s.raw_score, ...(s.fused_raw_score !== undefined ? { fused: s.fused_raw_score } : {}), detected: r.bias_detected, types: r.bias_type };
  });
}

export interface FixtureMetrics {
  split: string;
  n: number;
  positives: number;
  negatives: number;
  hard_negatives: number;
  recall: number;
  fpr: number;
  fpr_hard: number;
  precision: number;
  auc: number;
  type_agreement: number;
  axis_agreement: number;
}

export function fixtureMetrics(split: string, rows: Scored[]): FixtureMetrics {
  const pos = rows.filter((r) => r.f.label === 'biased');
  const neg = rows.filter((r) => r.f.label === 'unbiased');
  const hard = neg.filter((r) => r.f.hard_negative);
  const tp = pos.filter((r) => r.detected);
  const fp = neg.filter((r) => r.detected);
  const agree = tp.filter((r) => r.f.expected_bias_type.some((t) => r.types.includes(t)));
  const axisAgree = tp.filter((r) => r.f.expected_bias_type.filter((t) => !MECHANISMS.has(t)).every((t) => r.types.includes(t)));
  const div = (a: number, b: number) => (b === 0 ? NaN : Math.round((a / b) * 1000) / 1000);
  return {
    split,
    n: rows.length,
    positives: pos.length,
    negatives: neg.length,
    hard_negatives: hard.length,
    recall: div(tp.length, pos.length),
    fpr: div(fp.length, neg.length),
    fpr_hard: div(hard.filter((r) => r.detected).length, hard.length),
    precision: div(tp.length, tp.length + fp.length),
    auc: Math.round(rocAuc(pos.map((r) => r.p), neg.map((r) => r.p)) * 1000) / 1000,
    type_agreement: div(agree.length, tp.length),
    axis_agreement: div(axisAgree.length, tp.length),
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      data: { type: 'string', default: join(root, '..', 'shared', 'data') },
      only: { type: 'string' },
      errors: { type: 'string' },
      calibrate: { type: 'boolean', default: false },
      'fit-fusion': { type: 'boolean', default: false },
      fixtures: { type: 'string', default: join(root, 'test', 'fixtures', 'enterprise') },
      challenge: { type: 'string', default: join(root, 'test', 'fixtures', 'challenge') },
      'dev-variants': { type: 'string', default: join(root, 'test', 'fixtures', 'dev-variants') },
      'no-challenge': { type: 'boolean', default: false },
    },
  });
  const classifier = loadDefaultClassifier();
  if (!classifier) console.log('note: learned classifier not available; classifier detector disabled for this run');
  const fixtures = loadFixtures(values.fixtures!);
  for (const f of fixtures) for (const t of f.expected_bias_type) if (!TAXONOMY_KEYS.has(t)) throw new Error(`${f.id}: ${t} is not a taxonomy key`);

  if (values['fit-fusion']) {
    // Decision record 013: stacker on fixtures TRAIN + ToxiGen/RedditBias TRAIN; refit calibration afterwards.
    if (!classifier) throw new Error('--fit-fusion needs the learned classifier');
    if (!existsSync(values.data!)) throw new Error(`data folder ${values.data} not found: pass --data DIR`);
    const zero = { method: 'logistic-stacker' as const, features: [...FUSION_FEATURES], weights: FUSION_FEATURES.map(() => 0), bias: 0, fitted_on: '' };
    const a = createAnalyzerSync({ classifier, fusion: zero });
    const rows: FusionRow[] = fixtures.filter((f) => f.split === 'train').map((f) => ({ source: 'fixtures', x: fusionRow(a, f.llm_response, f.original_query), y: f.label === 'biased' ? 1 : 0 }));
    const nFix = rows.length;
    rows.push(...publicTrainRows(a, values.data!));
    const l2 = 0.01;
    const sourceWeight = { fixtures: 4, toxigen: 1, redditbias: 1 };
    const fit = fitLogistic(rows, l2, sourceWeight);
    const counts = Object.fromEntries(['fixtures', 'toxigen', 'redditbias'].map((s) => [s, rows.filter((r) => r.source === s).length]));
    const fusion = toFusion(fit, { l2, source_weight: sourceWeight, n: counts, classifier: classifier.version });
    writeFileSync(join(root, 'shared/domain/analyzer/fusion.json'), `${JSON.stringify(fusion, null, 2)}\n`);
    console.log(`fusion written (${nFix} fixtures + ${rows.length - nFix} public train rows): bias=${fusion.bias} ${fusion.features.map((k, i) => `${k}=${fusion.weights[i]}`).join(' ')}`);
    console.log('now refit the calibration: npm run eval -- --calibrate');
    return;
  }

  if (values.calibrate) {
    const uncal = createAnalyzerSync({ classifier, calibration: { ...currentCalibration(), a: 1, b: 0 } });
    const dev = score(uncal, fixtures.filter((f) => f.split === 'dev'));
    const { a, b } = fitPlatt(dev.map((r) => r.raw), dev.map((r) => (r.f.label === 'biased' ? 1 : 0)));
    const next: Calibration = { ...currentCalibration(), a: round(a), b: round(b), fitted_on: 'test/fixtures/enterprise dev split (Platt scaling on logit of the rule-evidence raw score, decision record 011)', n: dev.length };
    writeFileSync(join(root, 'shared/domain/analyzer/calibration.json'), `${JSON.stringify(next, null, 2)}\n`);
    console.log(`calibration written: a=${next.a} b=${next.b} (n=${dev.length} dev fixtures)`);
    // the fused ranking score's own Platt scaling (decision record 013), same dev split
    const fusionPath = join(root, 'shared/domain/analyzer/fusion.json');
    const fusion = JSON.parse(readFileSync(fusionPath, 'utf8')) as Fusion;
    if (fusion.weights) {
      const fused = dev.map((r) => r.fused ?? r.raw);
      const fp = fitPlatt(fused, dev.map((r) => (r.f.label === 'biased' ? 1 : 0)));
      fusion.platt = { a: round(fp.a), b: round(fp.b), n: dev.length };
      writeFileSync(fusionPath, `${JSON.stringify(fusion, null, 2)}\n`);
      console.log(`fusion calibration written: a=${fusion.platt.a} b=${fusion.platt.b}`);
    }
    return;
  }

  const analyzer = createAnalyzerSync({ classifier, calibration: currentCalibration() });
  if (values.only !== 'public') {
    console.log(`\n== Enterprise fixtures (${values.fixtures}) ==`);
    const all = score(analyzer, fixtures);
    const table: FixtureMetrics[] = ['train', 'dev', 'test'].map((s) => fixtureMetrics(s, all.filter((r) => r.f.split === s)));
    console.log('split  n   pos neg hard  recall  FPR    FPR(hard) precision AUC    type_agree axis_agree');
    for (const m of table) {
      console.log(
        `${m.split.padEnd(6)} ${String(m.n).padEnd(3)} ${String(m.positives).padEnd(3)} ${String(m.negatives).padEnd(3)} ${String(m.hard_negatives).padEnd(5)} ${fmt(m.recall)}   ${fmt(m.fpr)}  ${fmt(m.fpr_hard)}     ${fmt(m.precision)}     ${fmt(m.auc)}  ${fmt(m.type_agreement)}      ${fmt(m.axis_agreement)}`,
      );
    }
    // Development set of paraphrased / implicit phrasings (test/fixtures/dev-variants/README.md): tuned on.
    const variants = loadExtra(values['dev-variants']!, 'dev-variants');
    const variantRows = variants.length ? score(analyzer, variants) : [];
    if (variants.length) {
      const m = fixtureMetrics('dev-variants', variantRows);
      console.log(
        `${'variants'.padEnd(6)} ${String(m.n).padEnd(3)} ${String(m.positives).padEnd(3)} ${String(m.negatives).padEnd(3)} ${String(m.hard_negatives).padEnd(5)} ${fmt(m.recall)}   ${fmt(m.fpr)}  ${fmt(m.fpr_hard)}     ${fmt(m.precision)}     ${fmt(m.auc)}  ${fmt(m.type_agreement)}      ${fmt(m.axis_agreement)}`,
      );
    }
    const challenge = values['no-challenge'] ? [] : loadExtra(values.challenge!, 'challenge');
    if (challenge.length) {
      // Held-out challenge set (test/fixtures/challenge/README.md): reported, never tuned on; no --errors listing.
      const m = fixtureMetrics('challenge', score(analyzer, challenge));
      console.log(
        `${m.split.padEnd(6)} ${String(m.n).padEnd(3)} ${String(m.positives).padEnd(3)} ${String(m.negatives).padEnd(3)} ${String(m.hard_negatives).padEnd(5)} ${fmt(m.recall)}   ${fmt(m.fpr)}  ${fmt(m.fpr_hard)}     ${fmt(m.precision)}     ${fmt(m.auc)}  ${fmt(m.type_agreement)}      ${fmt(m.axis_agreement)}`,
      );
    }
    if (values.errors) {
      if (values.errors === 'test' || values.errors === 'challenge') console.log('(errors are shown for train/dev only: the test split is for reporting)');
      else
        for (const r of (values.errors === 'dev-variants' ? variantRows : all.filter((x) => x.f.split === values.errors)).filter((x) => x.detected !== (x.f.label === 'biased'))) {
          console.log(`  ${r.f.label === 'biased' ? 'MISS' : 'FP  '} ${r.f.id} p=${r.p} types=${r.types.join(',')} expected=${r.f.expected_bias_type.join(',')}`);
        }
    }
  }
  if (values.only !== 'fixtures') {
    console.log(`\n== Public datasets (test splits, ${values.data}) ==`);
    const modPath = join(root, 'scripts/lib/eval-public.ts');
    if (!existsSync(modPath)) {
      console.log('scripts/lib/eval-public.ts is missing: public-dataset evaluation skipped');
      return;
    }
    if (!existsSync(values.data!)) {
      console.log(`data folder ${values.data} not found: pass --data DIR (the public datasets live in ../shared/data)`);
      return;
    }
    const mod = (await import(pathToFileURL(modPath).href)) as {
      evalPublic(score: (t: string) => number, dataDir: string): Promise<{ dataset: string; metric: string; value: number; n: number; extra?: Record<string, number> }[]>;
    };
    const analyzeScore = (t: string) => (analyzer.analyzeSync({ llm_response: t, original_query: '' }).bias_report_summary as { overall_score: number }).overall_score;
    const results = await mod.evalPublic(analyzeScore, values.data!);
    console.log('dataset        metric                          value   n');
    for (const r of results) console.log(`${r.dataset.padEnd(14)} ${r.metric.padEnd(31)} ${fmt(r.value)}  ${r.n}${r.extra ? `  ${JSON.stringify(r.extra)}` : ''}`);
  }
}

/** An extra fixture set (the held-out challenge set, the dev-variants set); empty when the folder is absent. */
function loadExtra(dir: string, split: 'challenge' | 'dev-variants'): AnyFixture[] {
  const ChallengeFixture = Fixture.omit({ split: true }).extend({ split: z.literal(split) });
  const file = join(dir, 'responses.jsonl');
  if (!existsSync(file)) return [];
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const r = ChallengeFixture.safeParse(JSON.parse(l));
      if (!r.success) throw new Error(`${split} responses.jsonl line ${i + 1}: ${r.error.message}`);
      return r.data;
    });
  for (const f of rows) for (const t of f.expected_bias_type) if (!TAXONOMY_KEYS.has(t)) throw new Error(`${f.id}: ${t} is not a taxonomy key`);
  return rows;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : ' n/a ');
function currentCalibration(): Calibration {
  return JSON.parse(readFileSync(join(root, 'shared/domain/analyzer/calibration.json'), 'utf8')) as Calibration;
}

await main();
