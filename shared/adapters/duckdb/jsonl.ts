// Bias report straight from a bias_metrics.jsonl file. Fast path: DuckDB read_json (parallel, typed columns) into
// a temporary table, then the shared window-statistics SQL. DuckDB's ignore_errors turns a bad line into a row of
// NULLs without telling which line it was, so when any row fails validation the file is re-read line by line in
// Node to report each malformed line (number and reason) and the statistics are computed in memory from exactly
// the lines that passed. Clean files never take the slow path.
import { DuckDBInstance } from '@duckdb/node-api';
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { windowStatsFromRecords, type MetricRow, type WindowQuery, type WindowStats } from '../../domain/council/window';
import { JsonlMetricRecord, parseScoreScale } from '../../schemas/council';
import { toFieldIssues } from '../../schemas/common';
import { DUCKDB, invalidCount, statsFromRows, windowStatsSql, type StatsRow } from '../sql/council';

export interface MalformedLine {
  line: number;
  reason: string;
}

export interface JsonlStats {
  stats: WindowStats;
  /** Records used (peer scores in the window) on the DuckDB path; lines read on the line-by-line path. */
  lines: number;
  malformed: { count: number; lines: MalformedLine[] };
  path: 'duckdb' | 'line-by-line';
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
const num = (s: string) => `TRY_CAST(${s} AS DOUBLE)`;

export async function jsonlWindowStats(file: string, q: WindowQuery, opts: { maxReported?: number } = {}): Promise<JsonlStats> {
  if (!existsSync(file)) throw new Error(`input file not found: ${file}`);
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    await c.run(`SET TimeZone = 'UTC'`);
    const lo = num(`regexp_extract(score_scale, '^\\s*(-?[0-9]+(\\.[0-9]+)?)\\s*-', 1)`);
    const hi = num(`regexp_extract(score_scale, '-\\s*(-?[0-9]+(\\.[0-9]+)?)\\s*$', 1)`);
    // One pass over the file (materialised); the scale bounds are parsed once per distinct scale string and
    // joined back, instead of two regular expressions per record.
    const source = `(WITH file AS MATERIALIZED (
        SELECT tenant_id, session_id, timestamp, reviewer_id, model_id, position, response_length_chars, score_value, score_scale,
               COALESCE(council_config_version, '') AS council_config_version
        FROM read_json(${sqlString(file)}, format = 'newline_delimited', ignore_errors = true, maximum_object_size = 16777216,
          columns = {tenant_id: 'VARCHAR', session_id: 'VARCHAR', timestamp: 'TIMESTAMPTZ', reviewer_id: 'VARCHAR', model_id: 'VARCHAR',
                     position: 'BIGINT', response_length_chars: 'BIGINT', score_value: 'DOUBLE', score_scale: 'VARCHAR',
                     council_config_version: 'VARCHAR'})),
      scales AS (SELECT score_scale, ${lo} AS lo, ${hi} AS hi FROM (SELECT DISTINCT score_scale FROM file)),
      normalized AS (
        SELECT f.tenant_id, f.session_id, f.timestamp, f.reviewer_id, f.model_id, f.position, f.response_length_chars,
               f.council_config_version, (f.score_value - s.lo) / NULLIF(s.hi - s.lo, 0) AS score_normalized
        FROM file f LEFT JOIN scales s ON f.score_scale IS NOT DISTINCT FROM s.score_scale)
      SELECT *, (session_id IS NOT NULL AND session_id <> '' AND reviewer_id IS NOT NULL AND reviewer_id <> ''
        AND model_id IS NOT NULL AND model_id <> '' AND timestamp IS NOT NULL AND response_length_chars IS NOT NULL
        AND response_length_chars >= 0 AND (position IS NULL OR position >= 0) AND score_normalized IS NOT NULL
        AND score_normalized BETWEEN 0 AND 1) AS valid
      FROM normalized)`;
    const { sql, params } = windowStatsSql(DUCKDB, source, { ...q, tenantId: null }, { dedupe: false, validColumn: 'valid' });
    const rows = (await c.runAndReadAll(sql, params)).getRowObjectsJS() as unknown as StatsRow[];
    if (invalidCount(rows) === 0) {
      const stats = statsFromRows(rows);
      const lines = stats.sessions.reduce((a, s) => a + s.xy.n, 0);
      return { stats, lines, malformed: { count: 0, lines: [] }, path: 'duckdb' };
    }
  } finally {
    c.closeSync();
    instance.closeSync();
  }
  return lineByLine(file, q, opts.maxReported ?? 100);
}

async function lineByLine(file: string, q: WindowQuery, maxReported: number): Promise<JsonlStats> {
  const rows: MetricRow[] = [];
  const malformed: MalformedLine[] = [];
  let count = 0;
  let lineNo = 0;
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) {
    lineNo++;
    if (!line.trim()) continue;
    let reason: string | null = null;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      reason = `invalid JSON: ${(e as Error).message}`.slice(0, 200);
    }
    if (reason === null) {
      const parsed = JsonlMetricRecord.safeParse(value);
      if (parsed.success) {
        const r = parsed.data;
        const [lo, hi] = parseScoreScale(r.score_scale);
        const ts = /[zZ]|[+-]\d\d:?\d\d$/.test(r.timestamp) ? r.timestamp : `${r.timestamp}Z`;
        rows.push({
          tenant_id: r.tenant_id ?? null,
          session_id: r.session_id,
          timestamp: ts,
          reviewer_id: r.reviewer_id,
          model_id: r.model_id,
          position: r.position ?? null,
          response_length_chars: r.response_length_chars,
          score_normalized: (r.score_value - lo) / (hi - lo),
          council_config_version: r.council_config_version ?? '',
        });
        continue;
      }
      reason = toFieldIssues(parsed.error)
        .slice(0, 3)
        .map((i) => `${i.path || '(record)'}: ${i.message}`)
        .join('; ');
    }
    count++;
    if (malformed.length < maxReported) malformed.push({ line: lineNo, reason });
  }
  return { stats: windowStatsFromRecords(rows, { ...q, tenantId: null }), lines: rows.length + count, malformed: { count, lines: malformed }, path: 'line-by-line' };
}
