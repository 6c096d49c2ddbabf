// BigQuery adapter: contract tests of what it submits (a fake of OUR BigQueryClientLike port), and its SQL run on
// DuckDB where the dialects agree (everything but the parameter marker and UNIX_MILLIS).
import { describe, expect, it } from 'vitest';
import { BigQueryWarehouse, type BigQueryClientLike } from '../../../shared/adapters/bigquery/warehouse';
import { DuckDbWarehouse } from '../../../shared/adapters/duckdb/warehouse';
import { BIGQUERY, statsFromRows, windowStatsSql, type StatsRow } from '../../../shared/adapters/sql/council';
import { windowStatsFromRecords, type WindowQuery } from '../../../shared/domain/council';
import { generateRecords } from '../../support/council-data';
import { expectStatsClose } from '../../support/council-expect';
import { expectPositionClustersClose } from './expect-position-clusters';

const q: WindowQuery = { tenantId: 'tq', now: new Date('2026-11-22T00:00:00Z'), days: 30, maxSessions: 25, modelId: null, configVersion: '0.3.0' };
const records = generateRecords({ seed: 31, sessions: 40, tenantId: 'tq', includeSelfVotes: true });

function fakeClient(rows: Record<string, unknown>[] = []) {
  const queries: { query: string; params?: Record<string, unknown> }[] = [];
  const inserts: { table: string; rows: unknown[]; options?: Record<string, unknown> }[] = [];
  const client: BigQueryClientLike = {
    query: async (o) => {
      queries.push(o);
      return [rows];
    },
    dataset: (ds) => ({ table: (t) => ({ insert: async (r, options) => void inserts.push({ table: `${ds}.${t}`, rows: r, options }) }) }),
  };
  return { client, queries, inserts };
}

describe('BigQuery adapter contract', () => {
  it('streams records with insertId = record_id into the dataset table', async () => {
    const f = fakeClient();
    await new BigQueryWarehouse(f.client, 'bias_monitor').appendRecords(records.slice(0, 3));
    expect(f.inserts).toHaveLength(1);
    expect(f.inserts[0]!.table).toBe('bias_monitor.council_metric_records');
    expect(f.inserts[0]!.options).toEqual({ raw: true });
    const first = f.inserts[0]!.rows[0] as { insertId: string; json: Record<string, unknown> };
    expect(first.insertId).toBe(records[0]!.record_id);
    expect(first.json.tenant_id).toBe('tq');
    expect(typeof first.json.query_metadata).toBe('string');
  });

  it('submits the shared SQL with named parameters, tenant filter and record_id dedupe, and decodes string BIGINTs', async () => {
    const f = fakeClient([{ kind: 'session', key_s: 's1', key_n: null, n: '4', first_ms: '1000', last_ms: '2000', mean_x: 10, mean_y: 0.5, m2x: 4, m2y: 0.1, cxy: 0.2 }]);
    const stats = await new BigQueryWarehouse(f.client, 'bias_monitor', { location: 'EU' }).windowStats(q);
    const sent = f.queries[0]!;
    expect(sent.query).toContain('FROM `bias_monitor.council_metric_records`');
    expect(sent.query).toContain('tenant_id = @tenant_id');
    expect(sent.query).toContain('QUALIFY ROW_NUMBER() OVER (PARTITION BY record_id');
    expect(sent.query).toContain('UNIX_MILLIS(timestamp)');
    expect(sent.params).toEqual({ tenant_id: 'tq', since: '2026-10-23T00:00:00.000Z', config_version: '0.3.0' });
    expect((sent as { location?: string }).location).toBe('EU');
    expect(stats.sessions[0]).toEqual({ session_id: 's1', first_ms: 1000, last_ms: 2000, xy: { n: 4, meanX: 10, meanY: 0.5, m2x: 4, m2y: 0.1, cxy: 0.2 } });
  });

  it('the BigQuery SQL text runs on DuckDB (after mapping @params and UNIX_MILLIS) and gives the in-memory statistics', async () => {
    const wh = new DuckDbWarehouse(':memory:');
    await wh.appendRecords(records);
    await wh.appendRecords(records.slice(0, 10)); // duplicates are ignored by DuckDB; QUALIFY handles BigQuery's
    const { sql, params } = windowStatsSql(BIGQUERY, 'council_metric_records', q, { dedupe: true });
    const duckSql = sql.replace(/@(\w+)/g, '$$$1').replace(/UNIX_MILLIS\(/g, 'epoch_ms(');
    expect(duckSql.replace(/\$(\w+)/g, '@$1').replace(/epoch_ms\(/g, 'UNIX_MILLIS(')).toBe(sql); // only those two differ
    const rows = await wh.withConnection(async (c) => (await c.runAndReadAll(duckSql, params)).getRowObjectsJS());
    const viaSql = statsFromRows(rows as unknown as StatsRow[]);
    expectStatsClose(viaSql, windowStatsFromRecords(records, q));
    expectPositionClustersClose(viaSql, windowStatsFromRecords(records, q));
    expect(viaSql.positionClusters.cross).toHaveLength(15); // 5 positions: p ≤ q pairs
    await wh.close();
  });
});
