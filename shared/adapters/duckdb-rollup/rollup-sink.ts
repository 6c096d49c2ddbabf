// audit_daily_rollups in DuckDB (the local warehouse). Idempotent by primary key: INSERT OR REPLACE.
// A file database is opened per call and closed again, so the job never holds DuckDB's single-writer file lock
// between runs (other local processes share the same warehouse file).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { RollupSink } from '../../ports/rollup-sink';
import { DailyRollupRow } from '../../schemas/retention';

export const ROLLUP_TABLE = 'audit_daily_rollups';

const DDL = `CREATE TABLE IF NOT EXISTS ${ROLLUP_TABLE} (
  row_key VARCHAR PRIMARY KEY,
  tenant_id VARCHAR NOT NULL,
  day DATE NOT NULL,
  llm_model VARCHAR NOT NULL,
  bias_type VARCHAR NOT NULL,
  review_outcome VARCHAR NOT NULL,
  record_count BIGINT NOT NULL,
  bias_detected_count BIGINT NOT NULL,
  analysis_failed_count BIGINT NOT NULL,
  anonymized_count BIGINT NOT NULL
)`;

export class DuckDbRollupSink implements RollupSink {
  private memory: Promise<DuckDBInstance> | undefined;

  constructor(private readonly path: string) {}

  private async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const inMemory = this.path === ':memory:';
    if (!inMemory) mkdirSync(dirname(this.path), { recursive: true });
    const instance = inMemory ? await (this.memory ??= DuckDBInstance.create(':memory:')) : await DuckDBInstance.create(this.path);
    const conn = await instance.connect();
    try {
      await conn.run(DDL);
      return await fn(conn);
    } finally {
      conn.closeSync();
      if (!inMemory) instance.closeSync();
    }
  }

  async upsert(rows: readonly DailyRollupRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.withConnection(async (c) => {
      await c.run('BEGIN TRANSACTION');
      try {
        for (const r of rows) {
          await c.run(`INSERT OR REPLACE INTO ${ROLLUP_TABLE} VALUES ($1, $2, CAST($3 AS DATE), $4, $5, $6, $7, $8, $9, $10)`, [
            r.row_key,
            r.tenant_id,
            r.day,
            r.llm_model,
            r.bias_type,
            r.review_outcome,
            r.record_count,
            r.bias_detected_count,
            r.analysis_failed_count,
            r.anonymized_count,
          ]);
        }
        await c.run('COMMIT');
      } catch (e) {
        await c.run('ROLLBACK');
        throw e;
      }
    });
  }

  async rows(tenantId: string, opts: { fromDay?: string; toDay?: string } = {}): Promise<DailyRollupRow[]> {
    return this.withConnection(async (c) => {
      const reader = await c.runAndReadAll(
        `SELECT row_key, tenant_id, strftime(day, '%Y-%m-%d') AS day, llm_model, bias_type, review_outcome,
                record_count, bias_detected_count, analysis_failed_count, anonymized_count
         FROM ${ROLLUP_TABLE}
         WHERE tenant_id = $1 AND day >= CAST($2 AS DATE) AND day <= CAST($3 AS DATE)
         ORDER BY day, row_key`,
        [tenantId, opts.fromDay ?? '0001-01-01', opts.toDay ?? '9999-12-31'],
      );
      return reader.getRowObjectsJson().map((o) =>
        DailyRollupRow.parse({
          ...o,
          record_count: Number(o.record_count),
          bias_detected_count: Number(o.bias_detected_count),
          analysis_failed_count: Number(o.analysis_failed_count),
          anonymized_count: Number(o.anonymized_count),
        }),
      );
    });
  }

  async close() {
    const m = await this.memory;
    m?.closeSync();
    this.memory = undefined;
  }
}
