// Public-dataset evaluation on each dataset's TEST split (CrowS-Pairs: all of it; its authors allow
// evaluation only). Metric definitions are in docs/EVALUATION.md ("Learned classifier and public datasets").
import { pairwiseRate, recallAtFpr, rocAuc } from '../../shared/domain/analyzer/classifier/metrics';
import {
  bbqAnswerTexts,
  loadBbq,
  loadPairs,
  loadSentences,
  missingDatasets,
  type DatasetName,
  type SentenceRecord,
} from './datasets';

export interface PublicEvalResult {
  dataset: string;
  metric: string;
  value: number;
  n: number;
  extra?: Record<string, number>;
}

type Score = (text: string) => Promise<number> | number;

async function scoreAll(score: Score, texts: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const t of texts) out.push(await score(t));
  return out;
}

/** ROC AUC and recall at 5% FPR for sentence records (`biased` = positive). */
async function sentenceEval(
  dataset: string,
  records: readonly SentenceRecord[],
  score: Score,
): Promise<PublicEvalResult[]> {
  const pos = await scoreAll(score, records.filter((r) => r.label === 'biased').map((r) => r.text));
  const neg = await scoreAll(score, records.filter((r) => r.label === 'unbiased').map((r) => r.text));
  const n = pos.length + neg.length;
  const extra = { positives: pos.length, negatives: neg.length };
  return [
    { dataset, metric: 'roc_auc', value: rocAuc(pos, neg), n, extra },
    { dataset, metric: 'recall_at_5pct_fpr', value: recallAtFpr(pos, neg, 0.05), n, extra },
  ];
}

async function pairEval(dataset: string, pairs: readonly [string, string][], score: Score): Promise<PublicEvalResult> {
  const scored: [number, number][] = [];
  let ties = 0;
  for (const [m, l] of pairs) {
    const a = await score(m);
    const b = await score(l);
    if (a === b) ties++;
    scored.push([a, b]);
  }
  return { dataset, metric: 'pairwise_more_biased_higher', value: pairwiseRate(scored), n: scored.length, extra: { ties } };
}

export const PUBLIC_EVAL_DATASETS: readonly DatasetName[] = ['toxigen', 'stereoset', 'redditbias', 'crows_pairs', 'winobias', 'bbq'];

/**
 * Evaluates a scorer (higher = more biased) on the public datasets under dataDir. Datasets whose file
 * is missing are skipped with a warning on stderr; the caller can check `missingDatasets` first.
 */
export async function evalPublic(score: Score, dataDir: string): Promise<PublicEvalResult[]> {
  const missing = new Set(missingDatasets(dataDir, PUBLIC_EVAL_DATASETS).map((m) => m.split(' ')[0]));
  for (const m of missingDatasets(dataDir, PUBLIC_EVAL_DATASETS)) process.stderr.write(`evalPublic: skipping missing dataset ${m}\n`);
  const results: PublicEvalResult[] = [];
  const test = <T extends { split: string }>(xs: T[]): T[] => xs.filter((x) => x.split === 'test');

  if (!missing.has('toxigen')) {
    // The same statement can be listed under two groups (e.g. trans and lgbtq): score each text once.
    const seen = new Set<string>();
    const recs = test(loadSentences(dataDir, 'toxigen')).filter((r) => !seen.has(r.text) && seen.add(r.text));
    results.push(...(await sentenceEval('toxigen', recs, score)));
  }
  if (!missing.has('stereoset')) {
    // stereotype (biased) vs anti-stereotype (unbiased); the nonsense "unrelated" options are left out.
    const recs = test(loadSentences(dataDir, 'stereoset')).filter((r) => r.orig_label !== 'unrelated');
    results.push(...(await sentenceEval('stereoset', recs, score)));
  }
  if (!missing.has('redditbias')) {
    results.push(...(await sentenceEval('redditbias', test(loadSentences(dataDir, 'redditbias')), score)));
  }
  if (!missing.has('crows_pairs')) {
    const pairs = loadPairs(dataDir, 'crows_pairs').map((p) => [p.more_biased, p.less_biased] as [string, string]);
    results.push(await pairEval('crows_pairs', pairs, score));
  }
  if (!missing.has('winobias')) {
    const pairs = test(loadPairs(dataDir, 'winobias')).map((p) => [p.more_biased, p.less_biased] as [string, string]);
    results.push(await pairEval('winobias', pairs, score));
  }
  if (!missing.has('bbq')) {
    const items = test(loadBbq(dataDir)).flatMap((r) => {
      const t = bbqAnswerTexts(r);
      return t ? [t] : [];
    });
    const vsUnknown: [number, number][] = [];
    const vsOther: [number, number][] = [];
    let flaggedStereo = 0;
    let flaggedUnknown = 0;
    for (const it of items) {
      const s = await score(it.stereotyped);
      const u = await score(it.unknown);
      const o = await score(it.other);
      vsUnknown.push([s, u]);
      vsOther.push([s, o]);
      if (s >= 0.5) flaggedStereo++;
      if (u >= 0.5) flaggedUnknown++;
    }
    const n = items.length;
    results.push({
      dataset: 'bbq_ambig',
      metric: 'pairwise_stereotyped_vs_unknown',
      value: pairwiseRate(vsUnknown),
      n,
      extra: {
        pairwise_stereotyped_vs_other_group: pairwiseRate(vsOther),
        flag_rate_stereotyped_at_0_5: n ? flaggedStereo / n : Number.NaN,
        flag_rate_unknown_at_0_5: n ? flaggedUnknown / n : Number.NaN,
      },
    });
  }
  return results;
}

/** Markdown table of results (for docs/EVALUATION.md). */
export function resultsTable(results: readonly PublicEvalResult[]): string {
  const rows = results.map((r) => {
    const extra = r.extra
      ? Object.entries(r.extra)
          .map(([k, v]) => `${k}=${Number.isInteger(v) ? v : v.toFixed(3)}`)
          .join(', ')
      : '';
    return `| ${r.dataset} | ${r.metric} | ${r.value.toFixed(3)} | ${r.n} | ${extra} |`;
  });
  return ['| dataset (test split) | metric | value | n | extra |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}
