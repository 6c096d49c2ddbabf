import { FieldValue, type Firestore } from '@google-cloud/firestore';
import { eventDocId, sealEvent, type EventDraft } from '../../domain/audit/chain';
import { transient } from '../../errors';
import { AuditEvent, StoredAudit, type AuditRecord } from '../../schemas/audit';
import type { ApplyEventResult, AuditStore, CreateAuditResult, Transition } from '../../ports/audit-store';
import { GRPC_ALREADY_EXISTS, grpcCode } from './client';
import { auditDoc, eventsCol } from './paths';
import { notFound } from '../../errors';

const decodeAudit = (data: unknown) => StoredAudit.parse(data);

export class FirestoreAuditStore implements AuditStore {
  constructor(private readonly db: Firestore) {}

  async create(record: AuditRecord, draft: EventDraft): Promise<CreateAuditResult> {
    const event = sealEvent(record.tenant_id, record.id, null, draft, record);
    const stored: StoredAudit = {
      ...record,
      chain_head: { seq: event.seq, hash: event.hash },
      event_keys: draft.key ? [draft.key] : [],
      analysis_requested_at: null,
      stream_published_at: null,
    };
    const ref = auditDoc(this.db, record.tenant_id, record.id);
    const batch = this.db.batch();
    batch.create(ref, stored);
    batch.create(eventsCol(this.db, record.tenant_id, record.id).doc(eventDocId(event.seq)), event);
    try {
      await batch.commit();
      return { created: true, audit: stored };
    } catch (e) {
      if (grpcCode(e) !== GRPC_ALREADY_EXISTS) throw transient('audit store unavailable', e);
      const existing = await this.get(record.tenant_id, record.id);
      if (!existing) throw transient('audit vanished after ALREADY_EXISTS', e);
      return { created: false, audit: existing };
    }
  }

  async get(tenantId: string, auditId: string): Promise<StoredAudit | null> {
    const snap = await auditDoc(this.db, tenantId, auditId).get();
    return snap.exists ? decodeAudit(snap.data()) : null;
  }

  async applyEvent(
    tenantId: string,
    auditId: string,
    key: string | null,
    transition: (current: StoredAudit) => Transition | null,
  ): Promise<ApplyEventResult> {
    const ref = auditDoc(this.db, tenantId, auditId);
    return this.db.runTransaction(async (tx) => {
      const snap = await tx.get(ref);
      if (!snap.exists) throw notFound(`audit ${auditId}`);
      const current = decodeAudit(snap.data());
      if (key && current.event_keys.includes(key)) return { applied: false, audit: current, event: null };
      const t = transition(current);
      if (!t) return { applied: false, audit: current, event: null };
      const event = sealEvent(tenantId, auditId, current.chain_head, { ...t.draft, key }, t.next);
      const stored: StoredAudit = {
        ...t.next,
        chain_head: { seq: event.seq, hash: event.hash },
        event_keys: key ? [...current.event_keys, key] : current.event_keys,
        analysis_requested_at: current.analysis_requested_at,
        stream_published_at: current.stream_published_at,
      };
      tx.create(eventsCol(this.db, tenantId, auditId).doc(eventDocId(event.seq)), event);
      tx.set(ref, stored);
      return { applied: true, audit: stored, event };
    });
  }

  async events(tenantId: string, auditId: string) {
    const snap = await eventsCol(this.db, tenantId, auditId).orderBy('seq').get();
    return snap.docs.map((d) => ({ ...AuditEvent.parse(d.data()), id: d.id }));
  }

  async markAnalysisRequested(tenantId: string, auditId: string, at: string) {
    await auditDoc(this.db, tenantId, auditId).update({ analysis_requested_at: at });
  }

  async markStreamPublished(tenantId: string, auditId: string, at: string) {
    await auditDoc(this.db, tenantId, auditId).update({ stream_published_at: at });
  }
}

export { FieldValue };
