// BigQuery warehouse (production). Same window-statistics SQL text as DuckDB (shared/adapters/sql/council.ts),
// rendered with @named parameters and UNIX_MILLIS. Records are streamed with insertId = record_id (best-effort
// dedupe) and the statistics query keeps one row per record_id (QUALIFY), so redelivery never double-counts.
// What cannot be checked offline is listed in docs/decisions/041-bigquery-offline-limits.md.
import type { WindowQuery, WindowStats } from '../../domain/council/window';
import { transient } from '../../errors';
import type { MetricWarehouse } from '../../ports/warehouse';
import type { BiasMetricRecord, BiasReportJson } from '../../schemas/council';
import { BIGQUERY, listTenantsSql, statsFromRows, windowStatsSql, type StatsRow } from '../sql/council';

/** The part of @google-cloud/bigquery's client this adapter uses (our port boundary; tests inject a fake). */
export interface BigQueryClientLike {
  query(options: { query: string; params?: Record<string, unknown>; location?: string; useLegacySql?: boolean }): Promise<[Record<string, unknown>[], ...unknown[]]>;
  dataset(id: string): { table(id: string): { insert(rows: unknown[], options?: Record<string, unknown>): Promise<unknown> } };
}

export const RECORDS_TABLE = 'council_metric_records';
export const REPORTS_TABLE = 'council_bias_reports';

export const bigQueryDdl = (dataset: string) => [
  `CREATE TABLE IF NOT EXISTS \`${dataset}.${RECORDS_TABLE}\` (
    record_id STRING NOT NULL, tenant_id STRING NOT NULL, session_id STRING NOT NULL, timestamp TIMESTAMP NOT NULL,
    schema_version STRING NOT NULL, consent_level INT64 NOT NULL, query_metadata STRING, reviewer_id STRING NOT NULL,
    model_id STRING NOT NULL, position INT64, response_length_chars INT64 NOT NULL, response_length_words INT64 NOT NULL,
    score_value FLOAT64 NOT NULL, score_scale STRING NOT NULL, score_normalized FLOAT64 NOT NULL,
    council_config_version STRING NOT NULL, query_hash STRING, ingested_at TIMESTAMP NOT NULL
  ) PARTITION BY DATE(timestamp) CLUSTER BY tenant_id`,
  `CREATE TABLE IF NOT EXISTS \`${dataset}.${REPORTS_TABLE}\` (
    tenant_id STRING NOT NULL, generated_at TIMESTAMP NOT NULL, window_start TIMESTAMP, window_end TIMESTAMP,
    sessions INT64 NOT NULL, records INT64 NOT NULL, confidence_tier STRING NOT NULL, report_json STRING NOT NULL
  ) PARTITION BY DATE(generated_at) CLUSTER BY tenant_id`,
];

export class BigQueryWarehouse implements MetricWarehouse {
  constructor(
    private readonly client: BigQueryClientLike,
    private readonly dataset: string,
    private readonly opts: { location?: string; now?: () => Date } = {},
  ) {}

  private table(name: string) {
    return `\`${this.dataset}.${name}\``;
  }

  private async run(query: string, params: Record<string, unknown> = {}) {
    try {
      const [rows] = await this.client.query({ query, params, useLegacySql: false, ...(this.opts.location ? { location: this.opts.location } : {}) });
      return rows;
    } catch (e) {
      throw transient('BigQuery query failed', e);
    }
  }

  async ensureSchema(): Promise<void> {
    for (const ddl of bigQueryDdl(this.dataset)) await this.run(ddl);
  }

  async appendRecords(records: readonly BiasMetricRecord[]): Promise<{ inserted: number }> {
    if (records.length === 0) return { inserted: 0 };
    const ingestedAt = (this.opts.now?.() ?? new Date()).toISOString();
    const rows = records.map((r) => ({
      insertId: r.record_id,
      json: { ...r, query_metadata: r.query_metadata ? JSON.stringify(r.query_metadata) : null, ingested_at: ingestedAt },
    }));
    try {
      await this.client.dataset(this.dataset).table(RECORDS_TABLE).insert(rows, { raw: true });
    } catch (e) {
      throw transient('BigQuery insert failed', e);
    }
    // Streaming inserts do not report duplicates; reads dedupe by record_id.
    return { inserted: records.length };
  }

  async windowStats(query: WindowQuery): Promise<WindowStats> {
    const { sql, params } = windowStatsSql(BIGQUERY, this.table(RECORDS_TABLE), query, { dedupe: true });
    return statsFromRows((await this.run(sql, params)) as unknown as StatsRow[]);
  }

  async writeReport(tenantId: string, report: BiasReportJson): Promise<void> {
    try {
      await this.client.dataset(this.dataset).table(REPORTS_TABLE).insert(
        [
          {
            insertId: `${tenantId}:${report.generated_at}`,
            json: {
              tenant_id: tenantId,
              generated_at: report.generated_at,
              window_start: report.window.start,
              window_end: report.window.end,
              sessions: report.window.sessions,
              records: report.window.records,
              confidence_tier: report.confidence_tier,
              report_json: JSON.stringify(report),
            },
          },
        ],
        { raw: true },
      );
    } catch (e) {
      throw transient('BigQuery insert failed', e);
    }
  }

  async listTenants(): Promise<string[]> {
    return (await this.run(listTenantsSql(this.table(RECORDS_TABLE)))).map((r) => String(r.tenant_id));
  }

  async close(): Promise<void> {}
}
