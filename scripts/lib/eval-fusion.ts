// Score fusion fit (decision record 013): a logistic-regression stacker over the analyzer's detector outputs
// (report.ts FUSION_FEATURES), fitted on TRAIN splits only: the enterprise fixtures' train split and the public
// ToxiGen and RedditBias train splits. Never a test split, never CrowS-Pairs, never the challenge set. Each source
// carries the same total weight, so the ~100 fixtures are not drowned by thousands of Reddit phrases.
import type { Analyzer } from '../../shared/domain/analyzer';
import { FUSION_FEATURES, type Fusion } from '../../shared/domain/analyzer/report';
import { loadSentences } from './datasets';

export interface FusionRow {
  source: string;
  x: number[];
  y: number;
}

export function fusionRow(analyzer: Analyzer, text: string, query: string): number[] {
  const r = analyzer.analyzeSync({ llm_response: text, original_query: query });
  const f = (r.bias_report_summary as { fusion_features?: Record<string, number> }).fusion_features;
  if (!f) throw new Error('analyzer did not report fusion_features (run with a fusion)');
  return FUSION_FEATURES.map((k) => f[k] ?? 0);
}

export function publicTrainRows(analyzer: Analyzer, dataDir: string): FusionRow[] {
  const rows: FusionRow[] = [];
  for (const name of ['toxigen', 'redditbias'] as const) {
    const seen = new Set<string>();
    for (const r of loadSentences(dataDir, name)) {
      if (r.split !== 'train' || seen.has(r.text)) continue;
      seen.add(r.text);
      rows.push({ source: name, x: fusionRow(analyzer, r.text, ''), y: r.label === 'biased' ? 1 : 0 });
    }
  }
  return rows;
}

/** Weighted L2-regularised logistic regression by Newton's method (few features, so exact and deterministic). */
export function fitLogistic(rows: FusionRow[], l2 = 0.01, sourceWeight: Record<string, number> = {}): { weights: number[]; bias: number } {
  const d = rows[0]?.x.length ?? 0;
  const bySource = new Map<string, number>();
  for (const r of rows) bySource.set(r.source, (bySource.get(r.source) ?? 0) + 1);
  // each source's rows sum to (source weight) × (rows / sources): equal total weight per source by default
  const mean = rows.length / bySource.size;
  const wOf = (r: FusionRow) => ((sourceWeight[r.source] ?? 1) * mean) / bySource.get(r.source)!;
  const beta = new Array<number>(d + 1).fill(0); // [bias, w...]
  for (let it = 0; it < 50; it++) {
    const g = new Array<number>(d + 1).fill(0);
    const H = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    let total = 0;
    for (const r of rows) {
      const xs = [1, ...r.x];
      let z = 0;
      for (let i = 0; i <= d; i++) z += beta[i]! * xs[i]!;
      const p = 1 / (1 + Math.exp(-z));
      const w = wOf(r);
      total += w;
      for (let i = 0; i <= d; i++) {
        g[i]! += w * (p - r.y) * xs[i]!;
        for (let j = 0; j <= d; j++) H[i]![j]! += w * p * (1 - p) * xs[i]! * xs[j]!;
      }
    }
    for (let i = 0; i <= d; i++) {
      g[i] = g[i]! / total + (i > 0 ? l2 * beta[i]! : 0);
      for (let j = 0; j <= d; j++) H[i]![j] = H[i]![j]! / total + (i === j ? (i > 0 ? l2 : 1e-9) : 0);
    }
    const step = solve(H, g);
    let maxStep = 0;
    for (let i = 0; i <= d; i++) {
      beta[i] = beta[i]! - step[i]!;
      maxStep = Math.max(maxStep, Math.abs(step[i]!));
    }
    if (maxStep < 1e-9) break;
  }
  return { bias: beta[0]!, weights: beta.slice(1) };
}

function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[piv]![c]!)) piv = r;
    [M[c], M[piv]] = [M[piv]!, M[c]!];
    const v = M[c]![c]!;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / v;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((row, i) => row[n]! / row[i]!);
}

export function toFusion(fit: { weights: number[]; bias: number }, meta: Record<string, unknown>): Fusion {
  const r = (x: number) => Math.round(x * 1e6) / 1e6;
  return { method: 'logistic-stacker', features: [...FUSION_FEATURES], weights: fit.weights.map(r), bias: r(fit.bias), fitted_on: 'fixtures train + ToxiGen train + RedditBias train (equal total weight per source)', ...meta };
}
