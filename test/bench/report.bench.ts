// npm run bench:report — bias-report wall time for 1,000 sessions (in process) and 1,000,000 records (JSONL via
// DuckDB), with a plain line-by-line JSON.parse scan of the same file as the baseline. Prints figures; no asserts.
//
// 1,000 sessions: "cold" is the first report in a fresh process (what a newly started aggregate job pays: lazy
// compilation, no JIT feedback), measured in BENCH_COLD_PROCS child processes; "warm" is the median after
// BENCH_WARMUP in-process runs. The 1M-record report and the plain scan each run in their own child process, so
// each peak RSS is that path's alone. Env: BENCH_RUNS, BENCH_COLD_PROCS, BENCH_WARMUP, BENCH_RECORDS.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { jsonlWindowStats } from '../../shared/adapters/duckdb/jsonl';
import { DuckDbWarehouse } from '../../shared/adapters/duckdb/warehouse';
import { buildBiasReport, buildMetricRecords, DEFAULT_REPORT_OPTIONS, windowStatsFromRecords, type WindowQuery } from '../../shared/domain/council';
import type { BiasMetricRecord } from '../../shared/schemas/council';
import { generateRecords, generateSessions } from '../support/council-data';

const DIR = join(process.cwd(), 'bench-data');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const COLD_PROCS = Number(process.env.BENCH_COLD_PROCS ?? 7);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const N = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const FILE = join(DIR, `council-records-${N}.jsonl`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const now = new Date('2026-12-31T00:00:00Z');
const all = (tenantId: string | null): WindowQuery => ({ tenantId, now, days: null, maxSessions: null, modelId: null, configVersion: null });
const opts = (q: WindowQuery) => ({ ...DEFAULT_REPORT_OPTIONS, generatedAt: now, tenantId: q.tenantId, query: q });
const sessionsData = () => generateRecords({ seed: 42, sessions: 1000, tenantId: 'bench', scales: ['1-10', '0-1'], includeSelfVotes: true });

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

/** Baseline for the in-process case: one plain pass grouping the records by session (a Map and a sum). */
function plainGroupPass(records: readonly BiasMetricRecord[]) {
  const bySession = new Map<string, number>();
  for (const r of records) bySession.set(r.session_id, (bySession.get(r.session_id) ?? 0) + r.score_normalized);
  return bySession.size;
}

async function writeMillion(file: string, records: number) {
  mkdirSync(DIR, { recursive: true });
  const out = createWriteStream(file);
  let written = 0;
  let batch = 0;
  const start = new Date('2026-06-01T00:00:00Z');
  while (written < records) {
    const sessions = generateSessions({ seed: 1000 + batch, sessions: 500, start: new Date(start.getTime() + batch * 500 * 300_000), stepMs: 300_000, scales: ['1-10', '0-1', '1-5'], includeSelfVotes: true });
    let chunk = '';
    for (const s of sessions) {
      for (const r of buildMetricRecords(s, { tenantId: 'bench', timestamp: s.timestamp!, queryHash: null }).records) {
        if (written++ >= records) break;
        chunk += JSON.stringify(r) + '\n';
      }
    }
    if (!out.write(chunk)) await once(out, 'drain');
    batch++;
  }
  out.end();
  await once(out, 'finish');
}

async function plainScan(file: string) {
  let n = 0;
  let sum = 0;
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line) continue;
    const r = JSON.parse(line) as { score_value: number };
    sum += r.score_value;
    n++;
  }
  return { n, sum };
}

const maxRssMb = () => process.resourceUsage().maxRSS / 1024;

/** Child-process modes; each prints one JSON line. */
async function child(mode: string) {
  if (mode === 'cold') {
    const records = sessionsData();
    const q = all('bench');
    const [t] = await time(() => buildBiasReport(windowStatsFromRecords(records, q), opts(q)));
    const [t2] = await time(() => buildBiasReport(windowStatsFromRecords(records, q), opts(q)));
    console.log(JSON.stringify({ first: t, second: t2 }));
  } else if (mode === 'jsonl') {
    const [sql, res] = await time(() => jsonlWindowStats(FILE, all(null)));
    const [rep, report] = await time(() => buildBiasReport(res.stats, opts(all(null))));
    console.log(JSON.stringify({ total: sql + rep, sql, report: rep, sessions: report.window.sessions, resamples: report.length_correlation.bootstrap_resamples, rss: maxRssMb() }));
  } else if (mode === 'scan') {
    const [t] = await time(() => plainScan(FILE));
    console.log(JSON.stringify({ total: t, rss: maxRssMb() }));
  }
}

function runChild(mode: string): Record<string, number> {
  const res = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!], { env: { ...process.env, BENCH_REPORT_CHILD: mode }, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (res.status !== 0) throw new Error(`bench child ${mode} failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
}

async function main() {
  console.log(`bias-report benchmark (node ${process.version}); load average at start ${load()}`);

  // 1) 1,000 sessions, in process (records already in memory; the aggregate job's shape).
  const records = sessionsData();
  const q = all('bench');
  const cold = Array.from({ length: COLD_PROCS }, () => runChild('cold'));
  const warm: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const [t] = await time(() => buildBiasReport(windowStatsFromRecords(records, q), opts(q)));
    const [b] = await time(() => plainGroupPass(records));
    if (i >= WARMUP) {
      warm.push(t);
      base.push(b);
    }
  }
  const wh = new DuckDbWarehouse(':memory:');
  await wh.appendRecords(records);
  const viaDuck: number[] = [];
  for (let i = 0; i < 3 + Math.min(RUNS, 10); i++) {
    const [t] = await time(async () => buildBiasReport(await wh.windowStats(q), opts(q)));
    if (i >= 3) viaDuck.push(t);
  }
  await wh.close();
  const c1 = cold.map((c) => c.first!);
  const c2 = cold.map((c) => c.second!);
  console.log(`1,000 sessions (${records.length} records), in-process report (window statistics + report incl. 1,000-resample session bootstrap):`);
  console.log(`  cold, first report in a fresh process: median ${ms(median(c1))} (${range(c1)}, ${COLD_PROCS} processes); second report ${ms(median(c2))}`);
  console.log(`  warm, median of ${RUNS} after ${WARMUP} warm-up runs: ${ms(median(warm))} (${range(warm)}); baseline plain group-by pass ${ms(median(base))}, ratio ${(median(warm) / median(base)).toFixed(1)}`);
  console.log(`  via the DuckDB warehouse SQL (:memory:), warm median: ${ms(median(viaDuck))}`);
  console.log(`  load average ${load()}`);

  // 2) 1,000,000 records from JSONL (report and scan alternate, each in its own process).
  if (!existsSync(FILE)) {
    const [t] = await time(() => writeMillion(FILE, N));
    console.log(`generated ${FILE} in ${(t / 1000).toFixed(1)} s`);
  }
  const size = statSync(FILE).size;
  const reports: Record<string, number>[] = [];
  const scans: Record<string, number>[] = [];
  for (let i = 0; i < Math.max(3, Math.min(RUNS, 5)); i++) {
    reports.push(runChild('jsonl'));
    scans.push(runChild('scan'));
  }
  const rep = median(reports.map((r) => r.total!));
  const scan = median(scans.map((r) => r.total!));
  console.log(`${N.toLocaleString('en')} records (${(size / 1e6).toFixed(0)} MB, ${reports[0]!.sessions} sessions, bootstrap ${reports[0]!.resamples} resamples), median of ${reports.length}:`);
  console.log(`  bias-report ${ms(rep)} (${range(reports.map((r) => r.total!))}; SQL statistics ${ms(median(reports.map((r) => r.sql!)))}, report ${ms(median(reports.map((r) => r.report!)))})`);
  console.log(`  plain JSON.parse scan ${ms(scan)} (${range(scans.map((r) => r.total!))}); ratio report/scan ${(rep / scan).toFixed(2)}`);
  console.log(`  peak RSS: report process ${Math.max(...reports.map((r) => r.rss!)).toFixed(0)} MB, scan process ${Math.max(...scans.map((r) => r.rss!)).toFixed(0)} MB`);
  console.log(`  load average ${load()}`);
}

if (process.env.BENCH_REPORT_CHILD) await child(process.env.BENCH_REPORT_CHILD);
else await main();
