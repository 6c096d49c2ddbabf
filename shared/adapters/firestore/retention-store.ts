// Firestore implementation of the retention job's queries, cursor and purge.
import { FieldPath, Timestamp, type Firestore } from '@google-cloud/firestore';
import type { RetentionStore, RecordKey } from '../../ports/retention-store';
import { AuditRecord } from '../../schemas/audit';
import { RetentionCursor, type RetentionReport } from '../../schemas/retention';
import { auditsCol, eventsCol, tenantDoc } from './paths';

const ROLLUP_FIELDS = ['id', 'tenant_id', 'created_at', 'llm_model', 'bias_type', 'bias_detected', 'bias_status', 'review_verdict', 'anonymized_at'] as const;
const RollupFields = AuditRecord.pick(Object.fromEntries(ROLLUP_FIELDS.map((k) => [k, true])) as { [K in (typeof ROLLUP_FIELDS)[number]]: true });

export const retentionCursorDoc = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('jobs').doc('retention');
export const retentionPolicyDoc = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('config').doc('retention');
export const retentionRunDoc = (db: Firestore, runId: string) => db.collection('jobs').doc('retention').collection('runs').doc(runId);

export class FirestoreRetentionStore implements RetentionStore {
  constructor(private readonly db: Firestore) {}

  async listTenants(): Promise<string[]> {
    // listDocuments also returns "missing" parents, i.e. tenants that exist only through their audits.
    const refs = await this.db.collection('tenants').listDocuments();
    return refs.map((r) => r.id).sort();
  }

  async policyDoc(tenantId: string): Promise<unknown> {
    const snap = await retentionPolicyDoc(this.db, tenantId).get();
    return snap.exists ? snap.data() : null;
  }

  async cursor(tenantId: string) {
    const snap = await retentionCursorDoc(this.db, tenantId).get();
    if (!snap.exists) return null;
    const { purge_after: _ttl, ...rest } = snap.data() as Record<string, unknown>;
    return RetentionCursor.parse(rest);
  }

  async saveCursor(tenantId: string, cursor: RetentionCursor, expiresAt: Date) {
    await retentionCursorDoc(this.db, tenantId).set({ ...cursor, purge_after: Timestamp.fromDate(expiresAt) });
  }

  async anonymizeCandidates(tenantId: string, from: string, before: string, after: RecordKey | null, limit: number): Promise<RecordKey[]> {
    let q = auditsCol(this.db, tenantId)
      .where('anonymized_at', '==', null)
      .where('created_at', '>=', from)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .orderBy(FieldPath.documentId())
      .select('created_at')
      .limit(limit);
    if (after) q = q.startAfter(after.created_at, after.id);
    const snap = await q.get();
    return snap.docs.map((d) => ({ id: d.id, created_at: String(d.get('created_at')) }));
  }

  async oldestBetween(tenantId: string, from: string, before: string): Promise<RecordKey | null> {
    const snap = await auditsCol(this.db, tenantId)
      .where('created_at', '>=', from)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .select('created_at')
      .limit(1)
      .get();
    const d = snap.docs[0];
    return d ? { id: d.id, created_at: String(d.get('created_at')) } : null;
  }

  async recordsBetween(tenantId: string, start: string, end: string, after: RecordKey | null, limit: number) {
    let q = auditsCol(this.db, tenantId)
      .where('created_at', '>=', start)
      .where('created_at', '<', end)
      .orderBy('created_at')
      .orderBy(FieldPath.documentId())
      .select(...ROLLUP_FIELDS)
      .limit(limit);
    if (after) q = q.startAfter(after.created_at, after.id);
    const snap = await q.get();
    return snap.docs.map((d) => ({ ...RollupFields.parse(d.data()), id: d.id }));
  }

  async purge(tenantId: string, ids: readonly string[]) {
    const writer = this.db.bulkWriter();
    try {
      // Events first: if the run dies here, the record is still there and the next run deletes the rest.
      const eventRefs = (await Promise.all(ids.map((id) => eventsCol(this.db, tenantId, id).listDocuments()))).flat();
      const eventDeletes = eventRefs.map((ref) => writer.delete(ref));
      await writer.flush();
      await Promise.all(eventDeletes);
      const recordDeletes = ids.map((id) => writer.delete(auditsCol(this.db, tenantId).doc(id)));
      await writer.flush();
      await Promise.all(recordDeletes);
      return { records: ids.length, events: eventRefs.length };
    } finally {
      await writer.close();
    }
  }

  async saveRunReport(report: RetentionReport, expiresAt: Date) {
    await retentionRunDoc(this.db, report.run_id).set({ ...report, purge_after: Timestamp.fromDate(expiresAt) });
  }
}
