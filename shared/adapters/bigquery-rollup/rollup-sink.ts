// audit_daily_rollups in BigQuery: partitioned by day, clustered by tenant (terraform/modules/bigquery).
// Idempotent by row_key with MERGE: re-writing a day replaces its rows instead of adding to them.
import type { BigQuery } from '@google-cloud/bigquery';
import type { RollupSink } from '../../ports/rollup-sink';
import { DailyRollupRow } from '../../schemas/retention';

export const ROLLUP_TABLE = 'audit_daily_rollups';

/** Rows per MERGE statement: keeps the query parameter payload well under BigQuery's request limits. */
const CHUNK = 2_000;

export class BigQueryRollupSink implements RollupSink {
  constructor(
    private readonly bq: BigQuery,
    private readonly dataset: string,
    private readonly location: string,
  ) {}

  private get table() {
    return `\`${this.bq.projectId}.${this.dataset}.${ROLLUP_TABLE}\``;
  }

  async upsert(rows: readonly DailyRollupRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      await this.bq.query({
        location: this.location,
        query: `MERGE ${this.table} T
USING (SELECT * FROM UNNEST(@rows)) S
ON T.row_key = S.row_key AND T.day = PARSE_DATE('%Y-%m-%d', S.day)
WHEN MATCHED THEN UPDATE SET
  record_count = S.record_count,
  bias_detected_count = S.bias_detected_count,
  analysis_failed_count = S.analysis_failed_count,
  anonymized_count = S.anonymized_count
WHEN NOT MATCHED THEN INSERT
  (row_key, tenant_id, day, llm_model, bias_type, review_outcome, record_count, bias_detected_count, analysis_failed_count, anonymized_count)
  VALUES (S.row_key, S.tenant_id, PARSE_DATE('%Y-%m-%d', S.day), S.llm_model, S.bias_type, S.review_outcome,
          S.record_count, S.bias_detected_count, S.analysis_failed_count, S.anonymized_count)`,
        params: { rows: chunk.map((r) => ({ ...r })) },
        types: {
          rows: [
            {
              row_key: 'STRING',
              tenant_id: 'STRING',
              day: 'STRING',
              llm_model: 'STRING',
              bias_type: 'STRING',
              review_outcome: 'STRING',
              record_count: 'INT64',
              bias_detected_count: 'INT64',
              analysis_failed_count: 'INT64',
              anonymized_count: 'INT64',
            },
          ],
        },
      });
    }
  }

  async rows(tenantId: string, opts: { fromDay?: string; toDay?: string } = {}): Promise<DailyRollupRow[]> {
    const [result] = await this.bq.query({
      location: this.location,
      query: `SELECT row_key, tenant_id, FORMAT_DATE('%Y-%m-%d', day) AS day, llm_model, bias_type, review_outcome,
       record_count, bias_detected_count, analysis_failed_count, anonymized_count
FROM ${this.table}
WHERE tenant_id = @tenant AND day BETWEEN PARSE_DATE('%Y-%m-%d', @from) AND PARSE_DATE('%Y-%m-%d', @to)
ORDER BY day, row_key`,
      params: { tenant: tenantId, from: opts.fromDay ?? '0001-01-01', to: opts.toDay ?? '9999-12-31' },
    });
    return (result as Record<string, unknown>[]).map((o) =>
      DailyRollupRow.parse({
        ...o,
        record_count: Number(o.record_count),
        bias_detected_count: Number(o.bias_detected_count),
        analysis_failed_count: Number(o.analysis_failed_count),
        anonymized_count: Number(o.anonymized_count),
      }),
    );
  }
}
