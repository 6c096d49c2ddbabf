// One SQL text for the council warehouse, rendered for DuckDB and BigQuery. The dialects agree on everything used
// here (CTEs, QUALIFY, VAR_POP/COVAR_POP, CASE, UNION ALL, LIMIT, CAST(... AS TIMESTAMP)) except the parameter
// marker and the epoch-milliseconds function, which the Dialect supplies. SQL returns sufficient statistics only;
// TypeScript (shared/domain/council/report.ts) turns them into estimates.
import type { SessionStat, WindowQuery, WindowStats } from '../../domain/council/window';
import { normalizeWindowStats, sinceMs } from '../../domain/council/window';

export interface Dialect {
  name: 'duckdb' | 'bigquery';
  param(name: string): string;
  epochMs(expr: string): string;
}

export const DUCKDB: Dialect = { name: 'duckdb', param: (n) => `$${n}`, epochMs: (e) => `epoch_ms(${e})` };
export const BIGQUERY: Dialect = { name: 'bigquery', param: (n) => `@${n}`, epochMs: (e) => `UNIX_MILLIS(${e})` };

export const RECORD_COLUMNS = [
  'record_id',
  'tenant_id',
  'session_id',
  'timestamp',
  'schema_version',
  'consent_level',
  'query_metadata',
  'reviewer_id',
  'model_id',
  'position',
  'response_length_chars',
  'response_length_words',
  'score_value',
  'score_scale',
  'score_normalized',
  'council_config_version',
  'query_hash',
  'ingested_at',
] as const;

export interface StatsSql {
  sql: string;
  params: Record<string, string>;
}

/**
 * Window statistics in one statement: a UNION ALL of per-session bivariate moments, per-reviewer and per-position
 * score moments, the session-cluster residual cross-products of the position means (decision 043: k² rows, so the
 * result stays small however many sessions) and the self-vote difference moments. `source` is a table or a view with the record columns.
 * `dedupe` keeps one row per record_id (BigQuery streaming inserts are at-least-once).
 */
export function windowStatsSql(d: Dialect, source: string, q: WindowQuery, opts: { dedupe: boolean; validColumn?: string }): StatsSql {
  const params: Record<string, string> = {};
  const conds: string[] = [];
  if (q.tenantId !== null) {
    conds.push(`tenant_id = ${d.param('tenant_id')}`);
    params.tenant_id = q.tenantId;
  }
  const since = sinceMs(q);
  if (since !== null) {
    conds.push(`timestamp >= CAST(${d.param('since')} AS TIMESTAMP)`);
    params.since = new Date(since).toISOString();
  }
  if (q.modelId !== null) {
    conds.push(`model_id = ${d.param('model_id')}`);
    params.model_id = q.modelId;
  }
  if (q.configVersion !== null) {
    conds.push(`council_config_version = ${d.param('config_version')}`);
    params.config_version = q.configVersion;
  }
  if (q.maxSessions !== null && !(Number.isInteger(q.maxSessions) && q.maxSessions >= 0)) throw new RangeError('maxSessions must be a non-negative integer');
  const where = conds.length ? `WHERE ${conds.join(' AND ')}` : d.name === 'bigquery' && opts.dedupe ? 'WHERE TRUE' : '';
  const dedupe = opts.dedupe ? '\n  QUALIFY ROW_NUMBER() OVER (PARTITION BY record_id ORDER BY ingested_at) = 1' : '';
  const win =
    q.maxSessions === null
      ? 'SELECT * FROM src'
      : `SELECT src.* FROM src JOIN (
    SELECT session_id FROM src GROUP BY session_id ORDER BY MIN(ts_ms) DESC, session_id DESC LIMIT ${q.maxSessions}
  ) AS recent USING (session_id)`;
  // With validColumn (JSONL sources), rows failing validation are counted in an 'invalid' branch and excluded.
  const raw = opts.validColumn ? `raw AS (SELECT * FROM ${source}),\n` : '';
  const from = opts.validColumn ? 'raw' : source;
  const validWhere = opts.validColumn ? (where ? `${where} AND ${opts.validColumn}` : `WHERE ${opts.validColumn}`) : where;
  const invalidBranch = opts.validColumn
    ? `\nUNION ALL\nSELECT 'invalid', NULL, NULL, NULL, COUNT(*), NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM raw WHERE NOT ${opts.validColumn}`
    : '';
  const sql = `WITH ${raw}src AS (
  SELECT session_id, reviewer_id, model_id, position, response_length_chars AS x, score_normalized AS y, ${d.epochMs('timestamp')} AS ts_ms
  FROM ${from}
  ${validWhere}${dedupe}
),
win AS (
  ${win}
),
peer AS (SELECT * FROM win WHERE reviewer_id <> model_id),
self_pairs AS (
  SELECT session_id, model_id,
    AVG(CASE WHEN reviewer_id = model_id THEN y END) AS self_y,
    AVG(CASE WHEN reviewer_id <> model_id THEN y END) AS peer_y
  FROM win GROUP BY session_id, model_id
),
pos_resid AS (
  SELECT c.session_id, c.position, c.s - c.n * m.mean_y AS e
  FROM (SELECT session_id, position, COUNT(*) AS n, SUM(y) AS s FROM peer WHERE position IS NOT NULL GROUP BY session_id, position) AS c
  JOIN (SELECT position, AVG(y) AS mean_y FROM peer WHERE position IS NOT NULL GROUP BY position) AS m ON c.position = m.position
)
SELECT 'session' AS kind, session_id AS key_s, CAST(NULL AS BIGINT) AS key_n, CAST(NULL AS BIGINT) AS key_n2, COUNT(*) AS n, MIN(ts_ms) AS first_ms, MAX(ts_ms) AS last_ms,
  AVG(x) AS mean_x, AVG(y) AS mean_y, VAR_POP(x) * COUNT(*) AS m2x, VAR_POP(y) * COUNT(*) AS m2y, COVAR_POP(x, y) * COUNT(*) AS cxy
FROM peer GROUP BY session_id
UNION ALL
SELECT 'reviewer', reviewer_id, NULL, NULL, COUNT(*), NULL, NULL, NULL, AVG(y), NULL, VAR_POP(y) * COUNT(*), NULL
FROM peer GROUP BY reviewer_id
UNION ALL
SELECT 'position', NULL, position, NULL, COUNT(*), NULL, NULL, NULL, AVG(y), NULL, VAR_POP(y) * COUNT(*), NULL
FROM peer WHERE position IS NOT NULL GROUP BY position
UNION ALL
SELECT 'position_sessions', NULL, NULL, NULL, COUNT(DISTINCT session_id), NULL, NULL, NULL, NULL, NULL, NULL, NULL
FROM pos_resid
UNION ALL
SELECT 'position_cross', NULL, a.position, b.position, COUNT(*), NULL, NULL, NULL, NULL, NULL, NULL, SUM(a.e * b.e)
FROM pos_resid AS a JOIN pos_resid AS b ON a.session_id = b.session_id AND a.position <= b.position
GROUP BY a.position, b.position
UNION ALL
SELECT 'self', NULL, NULL, NULL, COUNT(*), NULL, NULL, NULL, AVG(self_y - peer_y), NULL, VAR_POP(self_y - peer_y) * COUNT(*), NULL
FROM self_pairs WHERE self_y IS NOT NULL AND peer_y IS NOT NULL${invalidBranch}`;
  return { sql, params };
}

export interface StatsRow {
  kind: string;
  key_s: string | null;
  key_n: number | bigint | string | null;
  /** Second position of a 'position_cross' row (absent in rows from older callers). */
  key_n2?: number | bigint | string | null;
  n: number | bigint | string;
  first_ms: number | bigint | string | null;
  last_ms: number | bigint | string | null;
  mean_x: number | null;
  mean_y: number | null;
  m2x: number | null;
  m2y: number | null;
  cxy: number | null;
}

/** BIGINT arrives as bigint (DuckDB) or string (BigQuery JSON); counts and epoch ms fit in a double. */
const num = (v: number | bigint | string | null | undefined): number => (v === null || v === undefined ? 0 : Number(v));
const f = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** Rows a JSONL source rejected (the 'invalid' branch); 0 for table sources. */
export const invalidCount = (rows: readonly StatsRow[]) => rows.filter((r) => r.kind === 'invalid').reduce((a, r) => a + num(r.n), 0);

export function statsFromRows(rows: readonly StatsRow[]): WindowStats {
  const sessions: SessionStat[] = [];
  const reviewers: WindowStats['reviewers'] = [];
  const positions: WindowStats['positions'] = [];
  let selfVotes = { n: 0, mean: 0, m2: 0 };
  const positionClusters: WindowStats['positionClusters'] = { sessions: 0, cross: [] };
  for (const r of rows) {
    const n = num(r.n);
    if (r.kind === 'session') {
      sessions.push({
        session_id: String(r.key_s),
        first_ms: num(r.first_ms),
        last_ms: num(r.last_ms),
        xy: { n, meanX: f(r.mean_x), meanY: f(r.mean_y), m2x: f(r.m2x), m2y: f(r.m2y), cxy: f(r.cxy) },
      });
    } else if (r.kind === 'reviewer') {
      reviewers.push({ reviewer_id: String(r.key_s), moments: { n, mean: f(r.mean_y), m2: f(r.m2y) } });
    } else if (r.kind === 'position') {
      positions.push({ position: num(r.key_n), moments: { n, mean: f(r.mean_y), m2: f(r.m2y) } });
    } else if (r.kind === 'position_sessions') {
      positionClusters.sessions = n;
    } else if (r.kind === 'position_cross') {
      positionClusters.cross.push({ p: num(r.key_n), q: num(r.key_n2), sum: f(r.cxy) });
    } else if (r.kind === 'self' && n > 0) {
      selfVotes = { n, mean: f(r.mean_y), m2: f(r.m2y) };
    }
  }
  return normalizeWindowStats({ sessions, reviewers, positions, selfVotes, positionClusters });
}

export const listTenantsSql = (source: string) => `SELECT DISTINCT tenant_id FROM ${source} ORDER BY tenant_id`;
