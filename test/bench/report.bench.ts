// npm run bench:report — bias-report wall time for 1,000 sessions (in process) and 1,000,000 records (JSONL via
// DuckDB), with a plain line-by-line JSON.parse scan of the same file as the baseline. Prints figures; no asserts.
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { jsonlWindowStats } from '../../shared/adapters/duckdb/jsonl';
import { DuckDbWarehouse } from '../../shared/adapters/duckdb/warehouse';
import { buildBiasReport, buildMetricRecords, DEFAULT_REPORT_OPTIONS, windowStatsFromRecords, type WindowQuery } from '../../shared/domain/council';
import { generateRecords, generateSessions } from '../support/council-data';

const DIR = join(process.cwd(), 'bench-data');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const now = new Date('2026-12-31T00:00:00Z');
const all = (tenantId: string | null): WindowQuery => ({ tenantId, now, days: null, maxSessions: null, modelId: null, configVersion: null });
const opts = (q: WindowQuery) => ({ ...DEFAULT_REPORT_OPTIONS, generatedAt: now, tenantId: q.tenantId, query: q });

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
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

async function main() {
  console.log(`bias-report benchmark (node ${process.version}, ${RUNS} runs, medians)`);

  // 1) 1,000 sessions, in process (records already in memory; the aggregate job's shape).
  const records = generateRecords({ seed: 42, sessions: 1000, tenantId: 'bench', scales: ['1-10', '0-1'], includeSelfVotes: true });
  const q = all('bench');
  const inMem: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const [t] = await time(() => buildBiasReport(windowStatsFromRecords(records, q), opts(q)));
    if (i > 0) inMem.push(t); // first run warms the JIT
  }
  const wh = new DuckDbWarehouse(':memory:');
  await wh.appendRecords(records);
  const viaDuck: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const [t] = await time(async () => buildBiasReport(await wh.windowStats(q), opts(q)));
    if (i > 0) viaDuck.push(t);
  }
  await wh.close();
  console.log(`1,000 sessions (${records.length} records): in-process report ${ms(median(inMem))}; via DuckDB warehouse SQL ${ms(median(viaDuck))}`);

  // 2) 1,000,000 records from JSONL.
  const N = Number(process.env.BENCH_RECORDS ?? 1_000_000);
  const file = join(DIR, `council-records-${N}.jsonl`);
  if (!existsSync(file)) {
    const [t] = await time(() => writeMillion(file, N));
    console.log(`generated ${file} in ${(t / 1000).toFixed(1)} s`);
  }
  const size = statSync(file).size;
  const reportTimes: number[] = [];
  const scanTimes: number[] = [];
  let sessions = 0;
  for (let i = 0; i < Math.max(3, Math.min(RUNS, 5)); i++) {
    const [tr, rep] = await time(async () => {
      const res = await jsonlWindowStats(file, all(null));
      return buildBiasReport(res.stats, opts(all(null)));
    });
    sessions = rep.window.sessions;
    reportTimes.push(tr);
    const [ts] = await time(() => plainScan(file));
    scanTimes.push(ts);
  }
  const rep = median(reportTimes);
  const scan = median(scanTimes);
  console.log(`${N.toLocaleString('en')} records (${(size / 1e6).toFixed(0)} MB, ${sessions} sessions): bias-report ${ms(rep)}; plain JSON.parse scan ${ms(scan)}; ratio report/scan ${(rep / scan).toFixed(2)}`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

await main();
