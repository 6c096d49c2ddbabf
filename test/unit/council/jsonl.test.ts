import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonlWindowStats } from '../../../shared/adapters/duckdb/jsonl';
import { windowStatsFromRecords, type WindowQuery } from '../../../shared/domain/council';
import { generateRecords } from '../../support/council-data';
import { expectStatsClose } from '../../support/council-expect';
import { expectPositionClustersClose } from './expect-position-clusters';

const dir = mkdtempSync(join(tmpdir(), 'bias-jsonl-'));
const q: WindowQuery = { tenantId: null, now: new Date('2026-11-22T00:00:00Z'), days: null, maxSessions: 30, modelId: null, configVersion: null };

describe('JSONL input', () => {
  const records = generateRecords({ seed: 3, sessions: 40, tenantId: 'local', scales: ['1-10', '0-1'], includeSelfVotes: true });

  it('clean files take the DuckDB path and match the in-memory statistics; ADR-018 1.0 records are accepted', async () => {
    const file = join(dir, 'clean.jsonl');
    // Strip fields a 1.0 record lacks; score_normalized is recomputed from score_value and score_scale.
    const adr10 = records.map(({ score_normalized: _n, tenant_id: _t, record_id: _r, ...r }) => ({ ...r, schema_version: 1 }));
    writeFileSync(file, adr10.map((r) => JSON.stringify(r)).join('\n') + '\n\n');
    const out = await jsonlWindowStats(file, q);
    expect(out.path).toBe('duckdb');
    expect(out.malformed.count).toBe(0);
    expectStatsClose(out.stats, windowStatsFromRecords(records, q));
    expectPositionClustersClose(out.stats, windowStatsFromRecords(records, q));
  });

  it('malformed lines are counted and reported with line number and reason; the rest is still used', async () => {
    const file = join(dir, 'dirty.jsonl');
    const lines = records.map((r) => JSON.stringify(r));
    lines.splice(4, 0, '{"session_id": "x", broken');
    lines.splice(10, 0, JSON.stringify({ ...records[0], score_value: 42 }));
    lines.splice(20, 0, JSON.stringify({ ...records[0], timestamp: 'yesterday' }));
    writeFileSync(file, lines.join('\n') + '\n');
    const out = await jsonlWindowStats(file, q);
    expect(out.path).toBe('line-by-line');
    expect(out.malformed.count).toBe(3);
    expect(out.malformed.lines.map((l) => l.line)).toEqual([5, 11, 21]);
    expect(out.malformed.lines[0]!.reason).toMatch(/invalid JSON/);
    expect(out.malformed.lines[1]!.reason).toMatch(/outside score_scale/);
    expect(out.malformed.lines[2]!.reason).toMatch(/timestamp/);
    expectStatsClose(out.stats, windowStatsFromRecords(records, q));
    expectPositionClustersClose(out.stats, windowStatsFromRecords(records, q));
  });
});
