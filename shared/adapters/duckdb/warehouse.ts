// DuckDB warehouse (embedded; the local default and the CLI's). Several function processes share one file, and
// DuckDB allows one writer process at a time, so a file-backed warehouse opens the database per operation and
// retries while another process holds the lock. ':memory:' stays open (tests, benchmarks).
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { WindowQuery, WindowStats } from '../../domain/council/window';
import { transient } from '../../errors';
import type { MetricWarehouse } from '../../ports/warehouse';
import type { BiasMetricRecord, BiasReportJson } from '../../schemas/council';
import { DUCKDB, listTenantsSql, RECORD_COLUMNS, statsFromRows, windowStatsSql, type StatsRow } from '../sql/council';

export const RECORDS_TABLE = 'council_metric_records';
export const REPORTS_TABLE = 'council_bias_reports';

export const DUCKDB_DDL = [
  `CREATE TABLE IF NOT EXISTS ${RECORDS_TABLE} (
    record_id VARCHAR PRIMARY KEY,
    tenant_id VARCHAR NOT NULL,
    session_id VARCHAR NOT NULL,
    timestamp TIMESTAMPTZ NOT NULL,
    schema_version VARCHAR NOT NULL,
    consent_level INTEGER NOT NULL,
    query_metadata VARCHAR,
    reviewer_id VARCHAR NOT NULL,
    model_id VARCHAR NOT NULL,
    position INTEGER,
    response_length_chars BIGINT NOT NULL,
    response_length_words BIGINT NOT NULL,
    score_value DOUBLE NOT NULL,
    score_scale VARCHAR NOT NULL,
    score_normalized DOUBLE NOT NULL,
    council_config_version VARCHAR NOT NULL,
    query_hash VARCHAR,
    ingested_at TIMESTAMPTZ NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS ${REPORTS_TABLE} (
    tenant_id VARCHAR NOT NULL,
    generated_at TIMESTAMPTZ NOT NULL,
    window_start TIMESTAMPTZ,
    window_end TIMESTAMPTZ,
    sessions BIGINT NOT NULL,
    records BIGINT NOT NULL,
    confidence_tier VARCHAR NOT NULL,
    report_json VARCHAR NOT NULL,
    PRIMARY KEY (tenant_id, generated_at)
  )`,
];

const isLockError = (e: unknown) => /lock|Conflicting lock|could not set lock/i.test(String((e as Error)?.message ?? e));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Row values for the record columns, in RECORD_COLUMNS order. */
export function recordValues(r: BiasMetricRecord, ingestedAt: string): DuckDBValue[] {
  return [
    r.record_id,
    r.tenant_id,
    r.session_id,
    r.timestamp,
    r.schema_version,
    r.consent_level,
    r.query_metadata ? JSON.stringify(r.query_metadata) : null,
    r.reviewer_id,
    r.model_id,
    r.position,
    r.response_length_chars,
    r.response_length_words,
    r.score_value,
    r.score_scale,
    r.score_normalized,
    r.council_config_version,
    r.query_hash,
    ingestedAt,
  ];
}

const TS_COLUMNS = new Set(['timestamp', 'ingested_at']);

export class DuckDbWarehouse implements MetricWarehouse {
  private instance: Promise<DuckDBInstance> | undefined;
  private readonly persistent: boolean;

  constructor(
    private readonly path: string,
    private readonly opts: { lockTimeoutMs?: number; now?: () => Date } = {},
  ) {
    this.persistent = path === ':memory:' || path === '';
  }

  private async open(): Promise<DuckDBInstance> {
    if (!this.persistent) mkdirSync(dirname(this.path), { recursive: true });
    const instance = await DuckDBInstance.create(this.persistent ? ':memory:' : this.path);
    const c = await instance.connect();
    try {
      await c.run(`SET TimeZone = 'UTC'`);
      for (const ddl of DUCKDB_DDL) await c.run(ddl);
    } finally {
      c.closeSync();
    }
    return instance;
  }

  /** Runs fn on a connection; file-backed databases are opened for the call and closed after it. */
  async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.persistent) {
      const inst = await (this.instance ??= this.open());
      const c = await inst.connect();
      try {
        await c.run(`SET TimeZone = 'UTC'`);
        return await fn(c);
      } finally {
        c.closeSync();
      }
    }
    const deadline = Date.now() + (this.opts.lockTimeoutMs ?? 30_000);
    for (let attempt = 0; ; attempt++) {
      let inst: DuckDBInstance | undefined;
      try {
        inst = await this.open();
        const c = await inst.connect();
        try {
          await c.run(`SET TimeZone = 'UTC'`);
          return await fn(c);
        } finally {
          c.closeSync();
        }
      } catch (e) {
        if (!isLockError(e) || Date.now() > deadline) throw isLockError(e) ? transient('warehouse is locked by another process', e) : e;
        await sleep(Math.min(500, 20 * 2 ** attempt) + Math.random() * 20);
      } finally {
        inst?.closeSync();
      }
    }
  }

  async appendRecords(records: readonly BiasMetricRecord[]): Promise<{ inserted: number }> {
    if (records.length === 0) return { inserted: 0 };
    const ingestedAt = (this.opts.now?.() ?? new Date()).toISOString();
    return this.withConnection(async (c) => {
      let inserted = 0;
      await c.run('BEGIN TRANSACTION');
      try {
        for (let i = 0; i < records.length; i += 500) {
          const chunk = records.slice(i, i + 500);
          const values: DuckDBValue[] = [];
          const tuples = chunk.map((r) => {
            const base = values.length;
            values.push(...recordValues(r, ingestedAt));
            return `(${RECORD_COLUMNS.map((col, j) => (TS_COLUMNS.has(col) ? `CAST($${base + j + 1} AS TIMESTAMPTZ)` : `$${base + j + 1}`)).join(', ')})`;
          });
          const res = await c.run(`INSERT OR IGNORE INTO ${RECORDS_TABLE} (${RECORD_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, values);
          inserted += Number(res.rowsChanged);
        }
        await c.run('COMMIT');
      } catch (e) {
        await c.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
      return { inserted };
    });
  }

  async windowStats(query: WindowQuery): Promise<WindowStats> {
    const { sql, params } = windowStatsSql(DUCKDB, RECORDS_TABLE, query, { dedupe: false });
    return this.withConnection(async (c) => statsFromRows((await c.runAndReadAll(sql, params)).getRowObjectsJS() as unknown as StatsRow[]));
  }

  async writeReport(tenantId: string, report: BiasReportJson): Promise<void> {
    await this.withConnection(async (c) => {
      await c.run(
        `INSERT OR IGNORE INTO ${REPORTS_TABLE} (tenant_id, generated_at, window_start, window_end, sessions, records, confidence_tier, report_json)
         VALUES ($1, CAST($2 AS TIMESTAMPTZ), CAST($3 AS TIMESTAMPTZ), CAST($4 AS TIMESTAMPTZ), $5, $6, $7, $8)`,
        [tenantId, report.generated_at, report.window.start, report.window.end, report.window.sessions, report.window.records, report.confidence_tier, JSON.stringify(report)],
      );
    });
  }

  async listTenants(): Promise<string[]> {
    return this.withConnection(async (c) => (await c.runAndReadAll(listTenantsSql(RECORDS_TABLE))).getRowObjectsJS().map((r) => String(r.tenant_id)));
  }

  async latestReportJson(tenantId: string): Promise<BiasReportJson | null> {
    return this.withConnection(async (c) => {
      const rows = (await c.runAndReadAll(`SELECT report_json FROM ${REPORTS_TABLE} WHERE tenant_id = $1 ORDER BY generated_at DESC LIMIT 1`, [tenantId])).getRowObjectsJS();
      return rows[0] ? (JSON.parse(String(rows[0].report_json)) as BiasReportJson) : null;
    });
  }

  async close(): Promise<void> {
    if (this.instance) (await this.instance).closeSync();
    this.instance = undefined;
  }
}
