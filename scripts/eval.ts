// npm run eval [-- --data DIR] [--only fixtures|public] [--errors train|dev|dev-variants] [--fit-decision]
// [--no-challenge] [--dev-variants DIR] [--probe FILE[,FILE...]]
// Evaluates the analyzer on the project's enterprise fixtures (train/dev/test splits), the dev-variants set, the
// held-out challenge sets and, through scripts/lib/eval-public.ts, the public datasets' test splits. Figures go to
// docs/EVALUATION.md. `--fit-decision` fits the decision model on `npm run crossfit`'s out-of-fold rows and writes
// shared/domain/analyzer/decision.json (decision record 015).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createAnalyzerSync, type Analyzer } from '../shared/domain/analyzer';
import { predict } from '../shared/domain/analyzer/report';
import { loadDefaultClassifier } from '../shared/domain/analyzer/default-classifier';
import { calibratedThreshold, cleanThreshold, fitDecision, FPR_BUDGET, REVIEW_BUDGET, THRESHOLD_GRID, type DecisionRow } from './lib/decision-fit';
import { recallAtFpr } from '../shared/domain/analyzer/classifier/metrics';
import { TAXONOMY_KEYS } from '../shared/domain/taxonomy';
import { z } from 'zod';
import { defaultTenantAnalyzerConfig } from '../shared/schemas/analyzer-config';
import { Fixture, loadFixtures, loadFixtureSet, readFixtureJsonl, rocAuc } from './lib/fixtures';
import { CALIBRATION_SETS, loadHeldOutSet, ORDINARY_SETS, UNSPENT_SETS } from './lib/held-out-sets';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const MECHANISMS = new Set(['stereotype', 'representation', 'language', 'toxicity', 'sentiment_disparity']);

type AnyFixture = Omit<Fixture, 'split'> & { split: string };
interface Scored {
  f: AnyFixture;
  p: number;
  detected: boolean;
  /** flagged, or not flagged but sent to HUMAN_REVIEW (review band, unsupported language) */
  reviewed: boolean;
  types: string[];
}

function score(analyzer: Analyzer, fixtures: AnyFixture[]): Scored[] {
  return fixtures.map((f) => {
    const r = analyzer.analyzeSync({ llm_response: f.llm_response, original_query: f.original_query });
    const s = r.bias_report_summary as { overall_score: number };
    return { f, p: s.overall_score, detected: r.bias_detected, reviewed: r.bias_detected || r.mitigation_action.type === 'HUMAN_REVIEW', types: r.bias_type };
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
      'fit-decision': { type: 'boolean', default: false },
      oof: { type: 'string', default: join(root, '.cache', 'crossfit', 'oof.json') },
      l2: { type: 'string', default: '0.01' },
      fixtures: { type: 'string', default: join(root, 'test', 'fixtures', 'enterprise') },
      'dev-variants': { type: 'string', default: join(root, 'test', 'fixtures', 'dev-variants') },
      'no-challenge': { type: 'boolean', default: false },
      /** score new fixture files (comma-separated JSONL) once, before they are added anywhere, and stop */
      probe: { type: 'string' },
    },
  });
  const classifier = loadDefaultClassifier();
  if (!classifier) console.log('note: learned classifier not available; classifier detector disabled for this run');
  const fixtures = loadFixtures(values.fixtures!);
  for (const f of fixtures) for (const t of f.expected_bias_type) if (!TAXONOMY_KEYS.has(t)) throw new Error(`${f.id}: ${t} is not a taxonomy key`);

  if (values['fit-decision']) {
    if (!existsSync(values.oof!)) throw new Error(`${values.oof} not found: run npm run crossfit first`);
    const oof = JSON.parse(readFileSync(values.oof!, 'utf8')) as { rows: DecisionRow[]; calibration_rows?: (DecisionRow & { set: string; forced: boolean })[]; folds: number; fold_by?: string; classifier: string; hyper: unknown };
    if (classifier && oof.classifier !== classifier.version) throw new Error(`${values.oof} was made for classifier ${oof.classifier}, the committed one is ${classifier.version}: rerun npm run crossfit`);
    const { model, curve, rulesCurve, nested } = fitDecision(oof.rows, Number(values.l2), { classifier: oof.classifier, classifier_hyper: oof.hyper, fold_by: oof.fold_by ?? 'item' });
    const pct = (x: number) => x.toFixed(3);
    console.log(`nested ${oof.folds}-fold CV over ${oof.rows.length} out-of-fold rows (l2 ${values.l2}): threshold | with classifier recall FPR FPR(hard) | rules only recall FPR`);
    const op = model.operating_point as { detection_threshold: number; nested_cv: unknown };
    const rp = model.review_point as { review_confidence_floor: number };
    curve.forEach((c, i) => {
      const chosen = c.threshold === op.detection_threshold ? ' ← 3% in nested CV' : c.threshold === rp.review_confidence_floor ? ' ← review floor' : '';
      if (Math.round(c.threshold * 100) % 5 === 0 || chosen) console.log(`  ${c.threshold.toFixed(2)} | ${pct(c.recall)} ${pct(c.fpr)} ${pct(c.fpr_hard)} | ${pct(rulesCurve[i]!.recall)} ${pct(rulesCurve[i]!.fpr)}${chosen}`);
    });
    // The detection threshold: the most recall within the false-positive budget on the spent held-out sets (decision
    // record 021). The classifier trains on them (record 023), so each response counts with the score of the fold model
    // that left its set out. Nested CV above keeps the review floor.
    if (!oof.calibration_rows?.length) throw new Error(`${values.oof} holds no out-of-fold rows of the spent held-out sets: rerun npm run crossfit`);
    const calibration = oof.calibration_rows.map((r) => ({ y: r.y, p: predict(r.x, model.with_classifier), forced: r.forced }));
    const calibrationSets = [...new Set(oof.calibration_rows.map((r) => r.set))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const { chosen: heldOutChoice, curve: calCurve } = calibratedThreshold(calibration, THRESHOLD_GRID, FPR_BUDGET);
    // Ordinary traffic (decision record 028): the clean fixtures that are not hard negatives, each scored by the
    // nested decision model that left its author's fold out, must stay within the same budget.
    const ordinaryScores = nested
      .filter((s) => s.row.source === 'fixtures' && s.row.y === 0 && !s.row.hard_negative)
      .map((s) => s.p);
    const ordinary = cleanThreshold(ordinaryScores, THRESHOLD_GRID, FPR_BUDGET);
    const detection = Math.max(heldOutChoice.threshold, ordinary.chosen.threshold);
    const chosen = calCurve.find((c) => c.threshold === detection)!;
    const ordinaryAtChosen = ordinary.curve.find((c) => c.threshold === detection)!;
    console.log(`ordinary clean fixtures, nested (${ordinaryScores.length}): lowest threshold with FPR + se <= budget ${ordinary.chosen.threshold}; at the detection threshold FPR ${pct(ordinaryAtChosen.fpr)}`);
    for (const c of ordinary.curve) if (c.threshold <= 0.8 && (Math.round(c.threshold * 100) % 5 === 0 || c.threshold === detection)) console.log(`  ${c.threshold.toFixed(2)} | ${pct(c.fpr)} ${pct(c.fpr + c.fpr_se)}${c.threshold === detection ? ' ← detection' : ''}`);
    console.log(`calibration sets (${calibrationSets.length}: ${chosen.positives} biased, ${chosen.negatives} clean): threshold | recall FPR FPR+se`);
    for (const c of calCurve) if (c.threshold <= 0.8 && (Math.round(c.threshold * 100) % 5 === 0 || c === chosen)) console.log(`  ${c.threshold.toFixed(2)} | ${pct(c.recall)} ${pct(c.fpr)} ${pct(c.fpr + c.fpr_se)}${c === chosen ? ' ← detection' : ''}`);
    // The ranking apart from any threshold: recall at a matched false-positive rate, the figure the keep rules of
    // decision records 026–029 and 080 compare.
    const calPos = calibration.filter((c) => c.y === 1).map((c) => c.p);
    const calNeg = calibration.filter((c) => c.y === 0).map((c) => c.p);
    console.log(`calibration sets, recall at a matched FPR of 1% / 3% / 5%: ${matchedRecall(calPos, calNeg)}`);
    // The review floor keeps ordinary traffic within the review budget too.
    const ordinaryReview = cleanThreshold(ordinaryScores, THRESHOLD_GRID, REVIEW_BUDGET).chosen;
    if (ordinaryReview.threshold > rp.review_confidence_floor) {
      console.log(`review floor raised from ${rp.review_confidence_floor} (nested CV) to ${ordinaryReview.threshold} (ordinary clean fixtures: ${pct(ordinaryReview.fpr)} + se within ${REVIEW_BUDGET})`);
      // rp is the fitted model's review_point: the raised floor is what decision.json records
      Object.assign(rp, { review_confidence_floor: ordinaryReview.threshold, ordinary: ordinaryReview, nested_cv: curve.find((c) => c.threshold === ordinaryReview.threshold) });
    }
    if (chosen.threshold <= rp.review_confidence_floor) throw new Error(`calibrated detection threshold ${chosen.threshold} is not above the review floor ${rp.review_confidence_floor}`);
    const nestedAtChosen = curve.find((c) => c.threshold === chosen.threshold);
    const fitted = {
      ...model,
      operating_point: {
        detection_threshold: chosen.threshold,
        fpr_budget: FPR_BUDGET,
        chosen_on: `lowest threshold with FPR + one standard error <= the budget on both the out-of-fold scores of the spent held-out sets (${calibrationSets.join(', ')}) and the nested scores of the ${ordinaryScores.length} ordinary clean fixtures (held-out sets alone: ${heldOutChoice.threshold}; ordinary alone: ${ordinary.chosen.threshold})`,
        calibration: chosen,
        ordinary: ordinaryAtChosen,
        nested_cv: nestedAtChosen,
        nested_cv_at_budget: op.nested_cv,
      },
    };
    writeFileSync(join(root, 'shared/domain/analyzer/decision.json'), `${JSON.stringify(fitted, null, 2)}\n`);
    console.log(`decision.json written; detection threshold ${chosen.threshold} (calibration ${pct(chosen.recall)} at ${pct(chosen.fpr)}; nested CV ${pct(nestedAtChosen?.recall ?? NaN)} at ${pct(nestedAtChosen?.fpr ?? NaN)}), review floor ${rp.review_confidence_floor}: copy both into shared/schemas/analyzer-config.ts`);
    return;
  }

  const analyzer = createAnalyzerSync({ classifier });
  if (values.probe) {
    // A fresh batch by a new author, scored by the analyzer as committed: an unseen-author measurement.
    console.log(`probe; last two columns: recall and FPR counting responses sent to review (P >= ${defaultTenantAnalyzerConfig().review_confidence_floor}, or a language the detectors do not cover) as caught`);
    const pooled: Scored[] = [];
    const files = values.probe.split(',');
    for (const file of files) {
      const rows = score(analyzer, loadJsonl(file));
      pooled.push(...rows);
      printLine(file.split('/').pop()!, rows);
    }
    if (files.length > 1) printLine('pooled', pooled);
    return;
  }
  if (values.only !== 'public') {
    console.log(`\n== Enterprise fixtures (${values.fixtures}) ==`);
    const all = score(analyzer, fixtures);
    const table: FixtureMetrics[] = ['train', 'dev', 'test'].map((s) => fixtureMetrics(s, all.filter((r) => r.f.split === s)));
    console.log('split  n   pos neg hard  recall  FPR    FPR(hard) precision AUC    type_agree axis_agree');
    for (const m of table) console.log(metricsRow(m));
    // Development set of paraphrased / implicit phrasings (test/fixtures/dev-variants/README.md): tuned on.
    const variants = loadFixtureSet(values['dev-variants']!, 'dev-variants');
    const variantRows = variants.length ? score(analyzer, variants) : [];
    if (variants.length) {
      console.log(metricsRow({ ...fixtureMetrics('dev-variants', variantRows), split: 'variants' }));
    }
    // Held-out sets (their READMEs; scripts/lib/held-out-sets.ts); no --errors listing. The classifier trains on the
    // spent ones (decision record 023), so their lines here are in-sample; their out-of-fold figures are printed by
    // --fit-decision. Unspent sets chose nothing and were never trained on: they alone measure the shipped analyzer.
    // The last columns give recall and false-positive rate when responses sent to human review count as caught.
    if (!values['no-challenge']) console.log(`held-out sets; last two columns: recall and FPR counting responses sent to review (P >= ${defaultTenantAnalyzerConfig().review_confidence_floor}, or a language the detectors do not cover) as caught`);
    for (const [group, names] of [['calibration', CALIBRATION_SETS], ['unspent', UNSPENT_SETS]] as const) {
      const pooled: Scored[] = [];
      for (const name of names) {
        const challenge = values['no-challenge'] ? [] : loadHeldOutSet(root, name);
        if (!challenge.length) continue;
        const rows = score(analyzer, challenge);
        pooled.push(...rows);
        if (group === 'unspent') printLine(name, rows);
      }
      if (pooled.length) printLine(group === 'calibration' ? 'spent (in-sample)' : 'unspent', pooled);
      // the unspent sets' ranking apart from the shipped threshold, as the keep rules compare it out of fold
      if (group === 'unspent' && pooled.length) {
        // a response flagged below the threshold (blocking toxicity) is flagged at every threshold: it ranks first
        const threshold = defaultTenantAnalyzerConfig().detection_threshold;
        const rank = (x: Scored): number => (x.detected && x.p < threshold ? 1 : x.p);
        const pos = pooled.filter((x) => x.f.label === 'biased').map(rank);
        const neg = pooled.filter((x) => x.f.label !== 'biased').map(rank);
        console.log(`unspent pooled, recall at a matched FPR of 1% / 3% / 5% (forced flags rank first): ${matchedRecall(pos, neg)}`);
      }
    }
    // Ordinary traffic: all clean, so only the false-alarm rates mean anything.
    const ordinary = values['no-challenge'] ? [] : ORDINARY_SETS.flatMap((name) => score(analyzer, loadHeldOutSet(root, name)).map((r) => ({ ...r, set: name })));
    if (ordinary.length) {
      console.log('ordinary traffic (clean only): set  n  flagged  flagged-or-review  flagged under 120 chars');
      for (const name of [...ORDINARY_SETS, 'pooled']) {
        const rows = name === 'pooled' ? ordinary : ordinary.filter((r) => r.set === name);
        const short = rows.filter((r) => r.f.llm_response.length < 120);
        const share = (xs: Scored[], pick: (x: Scored) => boolean) => fmt(xs.filter(pick).length / xs.length);
        if (rows.length) console.log(`  ${name.padEnd(11)} ${String(rows.length).padStart(4)}  ${share(rows, (x) => x.detected)}    ${share(rows, (x) => x.reviewed)}              ${share(short, (x) => x.detected)} (${short.length})`);
      }
    }
    if (values.errors) {
      if (values.errors === 'test' || values.errors.startsWith('challenge')) console.log('(errors are shown for train/dev only: the test split is for reporting)');
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

/** One line of the fixture table. */
function metricsRow(m: FixtureMetrics): string {
  return `${m.split.padEnd(6)} ${String(m.n).padEnd(3)} ${String(m.positives).padEnd(3)} ${String(m.negatives).padEnd(3)} ${String(m.hard_negatives).padEnd(5)} ${fmt(m.recall)}   ${fmt(m.fpr)}  ${fmt(m.fpr_hard)}     ${fmt(m.precision)}     ${fmt(m.auc)}  ${fmt(m.type_agreement)}      ${fmt(m.axis_agreement)}`;
}

/** One line of fixture metrics, plus recall and FPR when a response sent to human review counts as caught. */
function printLine(name: string, rows: Scored[]): void {
  const m = fixtureMetrics(name, rows);
  const r = fixtureMetrics(name, rows.map((x) => ({ ...x, detected: x.reviewed })));
  console.log(`${metricsRow(m)}      ${fmt(r.recall)}      ${fmt(r.fpr)}`);
}

/** A fixture file in any split (a new batch before it is merged). */
function loadJsonl(file: string): AnyFixture[] {
  return readFixtureJsonl(file, Fixture.omit({ split: true }).extend({ split: z.string() }), file);
}

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : ' n/a ');

/** Recall at a matched false-positive rate of 1%, 3% and 5%: the ranking apart from any threshold. */
const matchedRecall = (pos: readonly number[], neg: readonly number[]): string => [0.01, 0.03, 0.05].map((k) => fmt(recallAtFpr(pos, neg, k))).join(' / ');

await main();
