// bias-monitor bias-report: the pooled council bias report (ADR-018) from a JSONL file or the configured warehouse.
import { existsSync } from 'node:fs';
import { jsonlWindowStats, type MalformedLine } from '../../shared/adapters/duckdb/jsonl';
import { createWarehouse } from '../../shared/app/council-context';
import { buildBiasReport, DEFAULT_REPORT_OPTIONS, emptyWindowStats, type WindowQuery, type WindowStats } from '../../shared/domain/council';
import type { BiasReportJson } from '../../shared/schemas/council';
import { parseOptions } from '../args';
import { cliConfig } from '../env';

export const summary = 'pooled LLM-council judge bias report (length, position, reviewers, trends)';
export const usage = `bias-monitor bias-report [--input FILE.jsonl] [--tenant T] [--sessions N] [--days N] [--all]
                        [--model ID] [--config-version V] [--format text|json|csv] [--verbose] [--now ISO]

Reads BiasMetricRecords from FILE.jsonl (one JSON record per line, ADR-018 1.0 or 1.1.0) or, without --input, from
the configured warehouse (DuckDB at DUCKDB_PATH, or BigQuery when WAREHOUSE=bigquery; --tenant picks the tenant,
optional when the warehouse holds one). Window: the most recent --sessions N sessions and/or the last --days N
days; with neither, the configured defaults (BIAS_WINDOW_SESSIONS, BIAS_WINDOW_DAYS); --all uses every record.
--model keeps records whose candidate model_id is ID; --config-version keeps one council_config_version.
Scores are normalised to 0-1 before pooling; lengths are characters. Malformed lines are reported and skipped.`;

const BAR = '█';
const bar = (v: number, max: number, width = 24) => (max > 0 ? BAR.repeat(Math.max(0, Math.round((v / max) * width))) : '');
const fmt = (v: number | null | undefined, d = 3) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(d));
const SPARK = '▁▂▃▄▅▆▇█';

function progress(label: string) {
  const t0 = Date.now();
  let shown = false;
  let frame = 0;
  const timer = setInterval(() => {
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    if (process.stderr.isTTY) process.stderr.write(`\r${'⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'[frame++ % 10]} ${label} ${secs} s`);
    else if (!shown) process.stderr.write(`${label} (taking more than 1 s)…\n`);
    shown = true;
  }, 1000);
  return () => {
    clearInterval(timer);
    if (shown && process.stderr.isTTY) process.stderr.write(`\r${' '.repeat(label.length + 12)}\r`);
  };
}

export function renderText(r: BiasReportJson & { malformed_lines?: { count: number; lines: MalformedLine[] } }, verbose: boolean): string {
  const out: string[] = [];
  const w = r.window;
  out.push(`Council bias report${r.tenant_id ? ` — tenant ${r.tenant_id}` : ''}   generated ${r.generated_at}`);
  out.push(`Window: ${w.start ?? '—'} → ${w.end ?? '—'}   ${w.sessions} sessions, ${w.records} scores` +
    `${w.model_id ? `, model ${w.model_id}` : ''}${w.council_config_version ? `, config ${w.council_config_version}` : ''}`);
  const tierNote = { insufficient: 'collecting data: fewer than 10 sessions, metrics are not evidence', preliminary: 'high volatility: 10-19 sessions', moderate: '20-49 sessions: read the intervals', high: '50+ sessions' }[r.confidence_tier];
  out.push(`Confidence: ${r.confidence_tier} (${tierNote})`);
  out.push('Scores normalised to 0-1; lengths in characters; SDs are sample SDs (n−1).');
  out.push('');
  const lc = r.length_correlation;
  out.push('Length ↔ score correlation (pooled over all score pairs)');
  out.push(`  r = ${fmt(lc.r)}   p = ${fmt(lc.p_value, 4)} (t, n−2 df)   n = ${lc.n}`);
  out.push(`  95% CI Fisher z  [${fmt(lc.ci_lower)}, ${fmt(lc.ci_upper)}]   session bootstrap [${fmt(lc.bootstrap_ci_lower)}, ${fmt(lc.bootstrap_ci_upper)}] (${lc.bootstrap_resamples} resamples, seed ${lc.bootstrap_seed})`);
  out.push(`  length bias detected: ${lc.detected ? 'YES' : 'no'}`);
  out.push('');
  const pb = r.position_bias;
  out.push(`Score by position (variance of position means ${fmt(pb.variance, 5)}, session-cluster F = ${fmt(pb.f_statistic, 2)} p = ${fmt(pb.p_value, 4)}, max diff ${fmt(pb.max_difference)}; detected: ${pb.detected ? 'YES' : 'no'})`);
  out.push('  95% CIs are session-cluster-robust (sessions, not scores, are the independent units)');
  const maxMean = Math.max(0, ...pb.by_position.map((p) => p.mean));
  for (const p of pb.by_position) {
    out.push(`  ${String(p.position).padStart(3)}  ${fmt(p.mean)}  ${bar(p.mean, maxMean).padEnd(24)}  n=${p.n}  CI [${fmt(p.ci_lower)}, ${fmt(p.ci_upper)}]`);
  }
  out.push('');
  out.push('Reviewer harshness (z of reviewer mean vs the other reviewers; negative = harsher)');
  const idW = Math.max(8, ...r.reviewers.map((x) => x.reviewer_id.length));
  const zMax = Math.max(1, ...r.reviewers.map((x) => Math.abs(x.harshness_z ?? 0)));
  out.push(`  ${'reviewer'.padEnd(idW)}  ${'mean'.padStart(6)}  ${'sd'.padStart(6)}  ${'count'.padStart(6)}  ${'z'.padStart(6)}  `);
  for (const x of r.reviewers) {
    const z = x.harshness_z ?? 0;
    const left = z < 0 ? bar(-z, zMax, 12).padStart(12) : ' '.repeat(12);
    const right = z > 0 ? bar(z, zMax, 12) : '';
    out.push(`  ${x.reviewer_id.padEnd(idW)}  ${fmt(x.mean).padStart(6)}  ${fmt(x.std).padStart(6)}  ${String(x.count).padStart(6)}  ${fmt(x.harshness_z, 2).padStart(6)}  ${left}│${right}  ${x.classification}`);
  }
  out.push('');
  out.push(`Self-votes (excluded above): ${r.self_votes.count}, inflation ${fmt(r.self_votes.inflation)} [${fmt(r.self_votes.ci_lower)}, ${fmt(r.self_votes.ci_upper)}]`);
  out.push(`Anomalous sessions (|z| > 2.5 of session mean): ${r.anomalies.length ? '' : 'none'}`);
  for (const a of r.anomalies.slice(0, verbose ? undefined : 10)) out.push(`  ${a.session_id}  ${a.timestamp}  mean ${fmt(a.mean)}  z ${fmt(a.z, 2)}`);
  if (r.trends.length) {
    const rs = r.trends.map((t) => t.r);
    const defined = rs.filter((v): v is number => v !== null);
    const lo = Math.min(...defined);
    const hi = Math.max(...defined);
    const spark = rs.map((v) => (v === null ? ' ' : SPARK[hi > lo ? Math.round(((v - lo) / (hi - lo)) * 7) : 3])).join('');
    out.push(`Trend of r over ${r.trends.length} windows: ${spark}  (${fmt(defined[0] ?? null)} → ${fmt(defined.at(-1) ?? null)})`);
    if (verbose) for (const t of r.trends) out.push(`  ${t.start} → ${t.end}  sessions ${t.sessions}  r ${fmt(t.r)}  mean ${fmt(t.mean_score)}`);
  }
  if (r.malformed_lines?.count) {
    out.push('');
    out.push(`Malformed lines skipped: ${r.malformed_lines.count}`);
    for (const l of r.malformed_lines.lines.slice(0, verbose ? undefined : 10)) out.push(`  line ${l.line}: ${l.reason}`);
  }
  return out.join('\n');
}

export function renderCsv(r: BiasReportJson): string {
  const rows: (string | number | null)[][] = [['section', 'key', 'metric', 'value']];
  const add = (section: string, key: string | number, obj: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(obj)) if (v === null || typeof v !== 'object') rows.push([section, String(key), k, v as string | number | null]);
  };
  add('window', '', r.window);
  rows.push(['summary', '', 'confidence_tier', r.confidence_tier]);
  add('length_correlation', '', r.length_correlation);
  const { by_position, ...pos } = r.position_bias;
  add('position_bias', '', pos);
  for (const p of by_position) add('position', p.position, p);
  for (const x of r.reviewers) add('reviewer', x.reviewer_id, x);
  add('self_votes', '', r.self_votes);
  for (const a of r.anomalies) add('anomaly', a.session_id, a);
  for (const t of r.trends) add('trend', t.start, t);
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return rows.map((row) => row.map(cell).join(',')).join('\n');
}

export async function run(args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      input: { type: 'string' },
      tenant: { type: 'string' },
      sessions: { type: 'string' },
      days: { type: 'string' },
      all: { type: 'boolean', default: false },
      model: { type: 'string' },
      'config-version': { type: 'string' },
      format: { type: 'string', default: 'text' },
      verbose: { type: 'boolean', default: false },
      now: { type: 'string' },
    },
    usage,
  );
  const positiveInt = (name: string, v: string | undefined) => {
    if (v === undefined) return null;
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`--${name} must be a positive integer`);
    return Number(v);
  };
  let sessions: number | null;
  let days: number | null;
  let now: Date;
  try {
    sessions = positiveInt('sessions', o.sessions);
    days = positiveInt('days', o.days);
    if (!['text', 'json', 'csv'].includes(o.format!)) throw new Error('--format must be text, json or csv');
    now = o.now ? new Date(o.now) : new Date();
    if (Number.isNaN(now.getTime())) throw new Error('--now must be an ISO date-time');
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${usage}`);
    return 2;
  }
  const config = cliConfig();
  if (o.all) {
    sessions = null;
    days = null;
  } else if (sessions === null && days === null) {
    sessions = config.BIAS_WINDOW_SESSIONS;
    days = config.BIAS_WINDOW_DAYS;
  }
  const query: WindowQuery = { tenantId: null, now, days, maxSessions: sessions, modelId: o.model ?? null, configVersion: o['config-version'] ?? null };

  let stats: WindowStats;
  let malformed: { count: number; lines: MalformedLine[] } | undefined;
  let tenantId: string | null = null;
  const done = progress(`bias-report: scanning ${o.input ?? 'warehouse'}`);
  try {
    if (o.input) {
      if (!existsSync(o.input)) {
        console.error(`input file not found: ${o.input}`);
        return 1;
      }
      const res = await jsonlWindowStats(o.input, query);
      stats = res.stats;
      malformed = res.malformed;
    } else {
      const warehouse = createWarehouse(config);
      try {
        tenantId = o.tenant ?? null;
        if (!tenantId) {
          const tenants = await warehouse.listTenants();
          if (tenants.length > 1) {
            console.error(`the warehouse holds ${tenants.length} tenants; pick one with --tenant (${tenants.slice(0, 5).join(', ')}${tenants.length > 5 ? ', …' : ''})`);
            return 2;
          }
          tenantId = tenants[0] ?? null;
        }
        stats = tenantId ? await warehouse.windowStats({ ...query, tenantId }) : emptyWindowStats();
      } finally {
        await warehouse.close();
      }
    }
  } finally {
    done();
  }
  const report = buildBiasReport(stats, {
    ...DEFAULT_REPORT_OPTIONS,
    generatedAt: o.now ? now : new Date(),
    tenantId,
    query,
    lengthThreshold: config.COUNCIL_LENGTH_CORRELATION_THRESHOLD,
    bootstrapResamples: config.BIAS_BOOTSTRAP_RESAMPLES,
    bootstrapSeed: config.BIAS_BOOTSTRAP_SEED,
  });
  const full = malformed ? { ...report, malformed_lines: malformed } : report;
  if (malformed?.count && o.format !== 'text') {
    console.error(`bias-report: skipped ${malformed.count} malformed line(s): ${malformed.lines.slice(0, 5).map((l) => `line ${l.line}: ${l.reason}`).join('; ')}`);
  }
  if (o.format === 'json') console.log(JSON.stringify(full, null, 2));
  else if (o.format === 'csv') console.log(renderCsv(report));
  else console.log(renderText(full, o.verbose!));
  return 0;
}
