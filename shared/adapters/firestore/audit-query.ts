// Firestore read side for audits: plans each listing as an index-backed query plus (at most) an in-memory
// residual filter, and pages through it with opaque cursors. The query shapes it can issue are exported as data
// (auditQueryShapes) so a test can check every one against firestore.indexes.json (the emulator enforces none).
import { FieldPath, type DocumentSnapshot, type Firestore, type Query } from '@google-cloud/firestore';
import { validationFailed } from '../../errors';
import type { AuditFilter, AuditPage, AuditQuery, AuditSort, AuditSortField, SortDirection } from '../../ports/audit-query';
import { StoredAudit } from '../../schemas/audit';
import { auditsCol } from './paths';
import type { QueryShape } from './index-coverage';

/** Equality filters pushed to Firestore: GraphQL filter name -> stored field. */
export const EQUALITY_FILTERS = {
  userId: 'user_id',
  llmProvider: 'llm_provider',
  llmModel: 'llm_model',
  sensitivityScore: 'sensitivity_score',
  biasDetected: 'bias_detected',
  humanReviewed: 'human_reviewed',
  biasStatus: 'bias_status',
  decisionId: 'decision_id',
  reviewVerdict: 'review_verdict',
} as const satisfies Partial<Record<keyof AuditFilter, string>>;

export const SORT_FIELDS: readonly AuditSortField[] = ['log_timestamp', 'bias_confidence_score', 'bias_severity'];
export const SORT_DIRECTIONS: readonly SortDirection[] = ['asc', 'desc'];

interface RangeCondition {
  field: 'log_timestamp' | 'bias_confidence_score';
  op: '>=' | '<=';
  value: string | number;
}

export interface AuditQueryPlan {
  equalities: { field: string; value: unknown }[];
  arrayContains: { field: 'bias_type'; value: string } | null;
  /** Ranges Firestore evaluates (only on the sort field, and only when one index serves them). */
  pushedRanges: RangeCondition[];
  /** Ranges evaluated in memory on the scanned documents. */
  residualRanges: RangeCondition[];
  sort: AuditSort;
}

const iso = (v: string) => new Date(v).toISOString();

/** Pure: decides which part of the filter Firestore evaluates. */
export function planAuditQuery(filter: AuditFilter, sort: AuditSort): AuditQueryPlan {
  const equalities: AuditQueryPlan['equalities'] = [];
  for (const [name, field] of Object.entries(EQUALITY_FILTERS)) {
    const value = filter[name as keyof typeof EQUALITY_FILTERS];
    if (value !== undefined && value !== null) equalities.push({ field, value });
  }
  const arrayContains = filter.biasType ? { field: 'bias_type' as const, value: filter.biasType } : null;
  const ranges: RangeCondition[] = [];
  if (filter.logTimestampStart) ranges.push({ field: 'log_timestamp', op: '>=', value: iso(filter.logTimestampStart) });
  if (filter.logTimestampEnd) ranges.push({ field: 'log_timestamp', op: '<=', value: iso(filter.logTimestampEnd) });
  if (filter.minConfidence !== undefined && filter.minConfidence !== null) ranges.push({ field: 'bias_confidence_score', op: '>=', value: filter.minConfidence });
  // A range is pushed down only on the sort field and with at most one equality-like filter: then the single
  // composite index (filterField, sortField) serves it. Otherwise equality filters are served by index merging,
  // which Firestore supports for equality filters + one order only, and the range runs in memory.
  const equalityCount = equalities.length + (arrayContains ? 1 : 0);
  const pushedRanges = ranges.filter((r) => r.field === sort.field && equalityCount <= 1);
  const residualRanges = ranges.filter((r) => !pushedRanges.includes(r));
  return { equalities, arrayContains, pushedRanges, residualRanges, sort };
}

const DIR = { asc: 'ASCENDING', desc: 'DESCENDING' } as const;

/** The index requirement of a plan, in the vocabulary of firestore.indexes.json. */
export function shapeOfPlan(plan: AuditQueryPlan): QueryShape {
  return {
    collectionGroup: 'audits',
    equalities: [...plan.equalities.map((e) => e.field), ...(plan.arrayContains ? ['bias_type:CONTAINS'] : [])],
    order: [{ fieldPath: plan.sort.field, order: DIR[plan.sort.direction] }],
    hasRange: plan.pushedRanges.length > 0,
  };
}

/** Every query shape the audit adapter can issue: all filter combinations x all sorts, plus byDecision. */
export function auditQueryShapes(): QueryShape[] {
  const names = [...Object.keys(EQUALITY_FILTERS), 'biasType', 'logTimestampStart', 'logTimestampEnd', 'minConfidence'] as (keyof AuditFilter)[];
  const sample: AuditFilter = {
    userId: 'u', llmProvider: 'p', llmModel: 'm', sensitivityScore: 'internal', biasDetected: true, humanReviewed: false,
    biasStatus: 'ANALYZED', decisionId: 'd', reviewVerdict: 'CONFIRMED', biasType: 'gender',
    logTimestampStart: '2026-01-01T00:00:00Z', logTimestampEnd: '2026-02-01T00:00:00Z', minConfidence: 0.5,
  };
  const seen = new Map<string, QueryShape>();
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const filter: AuditFilter = {};
    names.forEach((n, i) => {
      if (mask & (1 << i)) (filter as Record<string, unknown>)[n] = sample[n];
    });
    for (const field of SORT_FIELDS) {
      for (const direction of SORT_DIRECTIONS) {
        const shape = shapeOfPlan(planAuditQuery(filter, { field, direction }));
        seen.set(JSON.stringify(shape), shape);
      }
    }
  }
  const decision = shapeOfPlan(planAuditQuery({ decisionId: 'd' }, { field: 'log_timestamp', direction: 'asc' }));
  seen.set(JSON.stringify(decision), decision);
  return [...seen.values()];
}

// --- cursors ---------------------------------------------------------------------------------------------

interface CursorPos {
  f: AuditSortField;
  d: SortDirection;
  v: string | number | null;
  id: string;
}

export const encodeCursor = (p: CursorPos) => Buffer.from(JSON.stringify(p)).toString('base64url');

export function decodeCursor(cursor: string, sort: AuditSort): CursorPos {
  let p: Partial<CursorPos>;
  try {
    p = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPos>;
  } catch {
    throw validationFailed([{ path: 'after', message: 'is not a cursor issued by this API' }]);
  }
  const valueOk = p.v === null || typeof p.v === 'string' || typeof p.v === 'number';
  if (!p || typeof p.id !== 'string' || !valueOk || p.f === undefined || p.d === undefined) {
    throw validationFailed([{ path: 'after', message: 'is not a cursor issued by this API' }]);
  }
  if (p.f !== sort.field || p.d !== sort.direction) {
    throw validationFailed([{ path: 'after', message: 'cursor was issued for a different sort order' }]);
  }
  return p as CursorPos;
}

function matchesRange(doc: DocumentSnapshot, r: RangeCondition): boolean {
  const v = doc.get(r.field) as unknown;
  if (v === null || v === undefined) return false;
  if (typeof v !== typeof r.value) return false;
  return r.op === '>=' ? (v as string | number) >= r.value : (v as string | number) <= r.value;
}

const MAX_SCAN = 2_000;

export class FirestoreAuditQuery implements AuditQuery {
  /** Optional observer of every planned query (tests record the shapes actually issued). */
  constructor(
    private readonly db: Firestore,
    private readonly onPlan?: (shape: QueryShape) => void,
  ) {}

  private baseQuery(tenantId: string, plan: AuditQueryPlan): Query {
    this.onPlan?.(shapeOfPlan(plan));
    let q: Query = auditsCol(this.db, tenantId);
    for (const e of plan.equalities) q = q.where(e.field, '==', e.value);
    if (plan.arrayContains) q = q.where(plan.arrayContains.field, 'array-contains', plan.arrayContains.value);
    for (const r of plan.pushedRanges) q = q.where(r.field, r.op, r.value);
    return q.orderBy(plan.sort.field, plan.sort.direction).orderBy(FieldPath.documentId(), plan.sort.direction);
  }

  private cursorOf(doc: DocumentSnapshot, sort: AuditSort): string {
    const v = doc.get(sort.field) as unknown;
    return encodeCursor({ f: sort.field, d: sort.direction, v: typeof v === 'string' || typeof v === 'number' ? v : null, id: doc.id });
  }

  /** Reads documents in order after `after`, keeping those the residual filter accepts. */
  private async scan(tenantId: string, filter: AuditFilter, sort: AuditSort, after: CursorPos | null, skip: number, want: number) {
    const plan = planAuditQuery(filter, sort);
    const base = this.baseQuery(tenantId, plan);
    const residual = plan.residualRanges;
    const batchSize = residual.length === 0 ? skip + want : Math.min(300, Math.max(50, want * 4));
    const kept: DocumentSnapshot[] = [];
    let pos: DocumentSnapshot | CursorPos | null = after;
    let scanned = 0;
    let exhausted = false;
    let toSkip = skip;
    for (;;) {
      let q = base;
      if (pos) q = 'exists' in pos ? q.startAfter(pos) : q.startAfter(pos.v, pos.id);
      const snap = await q.limit(batchSize).get();
      let full = false;
      for (const doc of snap.docs) {
        scanned++;
        pos = doc;
        if (!residual.every((r) => matchesRange(doc, r))) continue;
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        kept.push(doc);
        if (kept.length === want) {
          full = true;
          break;
        }
      }
      if (full) break;
      if (snap.size < batchSize) {
        exhausted = true;
        break;
      }
      if (scanned >= MAX_SCAN + skip) break;
    }
    return { kept, scanned, exhausted, last: pos && 'exists' in pos ? pos : null };
  }

  async page(tenantId: string, filter: AuditFilter, sort: AuditSort, opts: { first: number; after?: string | null | undefined }): Promise<AuditPage> {
    const after = opts.after ? decodeCursor(opts.after, sort) : null;
    // One extra document tells whether another page exists.
    const { kept, scanned, exhausted, last } = await this.scan(tenantId, filter, sort, after, 0, opts.first + 1);
    const items = kept.slice(0, opts.first).map((doc) => ({ audit: StoredAudit.parse(doc.data()), cursor: this.cursorOf(doc, sort) }));
    const more = kept.length > opts.first;
    // Without the look-ahead document, a scan that hit its budget may still have matches further on: resume
    // from the last document examined rather than the last one returned.
    const budgetHit = !more && !exhausted;
    const hasNextPage = more || budgetHit;
    const endCursor = budgetHit && last ? this.cursorOf(last, sort) : (items.at(-1)?.cursor ?? null);
    return { items, hasNextPage, endCursor, scanned };
  }

  async list(tenantId: string, filter: AuditFilter, sort: AuditSort, opts: { limit: number; offset: number }) {
    const plan = planAuditQuery(filter, sort);
    if (plan.residualRanges.length === 0) {
      const snap = await this.baseQuery(tenantId, plan).offset(opts.offset).limit(opts.limit).get();
      return snap.docs.map((d) => StoredAudit.parse(d.data()));
    }
    const { kept } = await this.scan(tenantId, filter, sort, null, opts.offset, opts.limit);
    return kept.map((d) => StoredAudit.parse(d.data()));
  }

  async byDecision(tenantId: string, decisionId: string, limit: number) {
    const plan = planAuditQuery({ decisionId }, { field: 'log_timestamp', direction: 'asc' });
    const snap = await this.baseQuery(tenantId, plan).limit(limit).get();
    return snap.docs.map((d) => StoredAudit.parse(d.data()));
  }
}
