// Every query shape the adapters can build has a composite index in firestore.indexes.json (the emulator does not
// enforce indexes; production would fail the query with FAILED_PRECONDITION).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditQueryShapes, planAuditQuery } from '../../../shared/adapters/firestore/audit-query';
import { describeShape, isServed, type IndexFile } from '../../../shared/adapters/firestore/index-coverage';
import { taskSuggestionQueryShapes } from '../../../shared/adapters/firestore/task-suggestions';

const file = JSON.parse(readFileSync(new URL('../../../firestore.indexes.json', import.meta.url), 'utf8')) as IndexFile;

describe('firestore.indexes.json', () => {
  it('serves every audit and task-suggestion query shape', () => {
    const shapes = [...auditQueryShapes(), ...taskSuggestionQueryShapes()];
    expect(shapes.length).toBeGreaterThan(100);
    const missing = shapes.filter((s) => !isServed(s, file.indexes)).map(describeShape);
    expect(missing).toEqual([]);
    console.log(`query shapes checked: ${shapes.length}; composite indexes declared: ${file.indexes.length}`);
  });

  it('the check fails when an index is removed', () => {
    const without = file.indexes.filter((i) => !(i.collectionGroup === 'audits' && i.fields[0]?.fieldPath === 'decision_id' && i.fields[1]?.order === 'ASCENDING' && i.fields[1]?.fieldPath === 'log_timestamp'));
    expect(without.length).toBe(file.indexes.length - 1);
    const missing = auditQueryShapes().filter((s) => !isServed(s, without));
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.every((s) => s.equalities.includes('decision_id'))).toBe(true);
  });

  it('stays under the Firestore limit of 200 composite indexes', () => {
    expect(file.indexes.length).toBeLessThanOrEqual(200);
  });
});

describe('index matcher', () => {
  const idx = (group: string, ...fields: [string, string][]) => ({
    collectionGroup: group,
    queryScope: 'COLLECTION' as const,
    fields: fields.map(([fieldPath, o]) => (o === 'CONTAINS' ? { fieldPath, arrayConfig: 'CONTAINS' as const } : { fieldPath, order: o as 'ASCENDING' | 'DESCENDING' })),
  });
  const shape = (equalities: string[], order: [string, 'ASCENDING' | 'DESCENDING'][], hasRange = false) => ({ collectionGroup: 'c', equalities, order: order.map(([fieldPath, o]) => ({ fieldPath, order: o })), hasRange });

  it('built-in single-field indexes need no declaration', () => {
    expect(isServed(shape([], [['t', 'DESCENDING']]), [])).toBe(true);
    expect(isServed(shape(['a'], []), [])).toBe(true);
    expect(isServed(shape(['a'], [['t', 'DESCENDING']]), [])).toBe(false);
  });
  it('direction matters', () => {
    expect(isServed(shape(['a'], [['t', 'DESCENDING']]), [idx('c', ['a', 'ASCENDING'], ['t', 'ASCENDING'])])).toBe(false);
    expect(isServed(shape(['a'], [['t', 'DESCENDING']]), [idx('c', ['a', 'ASCENDING'], ['t', 'DESCENDING'])])).toBe(true);
  });
  it('merges equality indexes only without a range', () => {
    const both = [idx('c', ['a', 'ASCENDING'], ['t', 'DESCENDING']), idx('c', ['b', 'CONTAINS'], ['t', 'DESCENDING'])];
    expect(isServed(shape(['a', 'b:CONTAINS'], [['t', 'DESCENDING']]), both)).toBe(true);
    expect(isServed(shape(['a', 'b:CONTAINS'], [['t', 'DESCENDING']], true), both)).toBe(false);
    expect(isServed(shape(['a', 'b'], [['t', 'DESCENDING']]), both)).toBe(false);
  });
  it('an exact composite serves a range on the order field', () => {
    expect(isServed(shape(['a', 'b'], [['t', 'ASCENDING']], true), [idx('c', ['b', 'ASCENDING'], ['a', 'ASCENDING'], ['t', 'ASCENDING'])])).toBe(true);
  });
});

describe('query planning', () => {
  it('pushes a range down only on the sort field with at most one equality filter', () => {
    const sort = { field: 'log_timestamp' as const, direction: 'desc' as const };
    expect(planAuditQuery({ logTimestampStart: '2026-01-01T00:00:00Z' }, sort).pushedRanges).toHaveLength(1);
    expect(planAuditQuery({ userId: 'u', logTimestampStart: '2026-01-01T00:00:00Z' }, sort).pushedRanges).toHaveLength(1);
    const two = planAuditQuery({ userId: 'u', llmModel: 'm', logTimestampStart: '2026-01-01T00:00:00Z' }, sort);
    expect(two.pushedRanges).toHaveLength(0);
    expect(two.residualRanges).toHaveLength(1);
    const off = planAuditQuery({ minConfidence: 0.5 }, sort);
    expect(off.residualRanges).toEqual([{ field: 'bias_confidence_score', op: '>=', value: 0.5 }]);
  });
  it('normalises time bounds to the stored ISO form', () => {
    const p = planAuditQuery({ logTimestampEnd: '2026-01-01T02:00:00+02:00' }, { field: 'log_timestamp', direction: 'asc' });
    expect(p.pushedRanges[0]!.value).toBe('2026-01-01T00:00:00.000Z');
  });
});
