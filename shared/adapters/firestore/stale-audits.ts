// Collection-group queries over tenants/*/audits for the analysis sweeper. Each query shape has a composite
// index in firestore.indexes.json (collection-group scope); the emulator does not enforce them.
import type { DocumentSnapshot, Firestore, Query } from '@google-cloud/firestore';
import { StoredAudit } from '../../schemas/audit';
import type { StaleAuditFinder, StaleAuditQuery, StaleAuditRef } from '../../ports/stale-audits';
import { transient } from '../../errors';

/** Only `tenants/{t}/audits/{id}`: another collection named `audits` elsewhere is not ours. */
const isTenantAudit = (d: DocumentSnapshot) => d.ref.parent.parent?.parent?.id === 'tenants';

export class FirestoreStaleAudits implements StaleAuditFinder {
  constructor(private readonly db: Firestore) {}

  private query(q: StaleAuditQuery): Query {
    const audits = this.db.collectionGroup('audits');
    switch (q.kind) {
      case 'unrequested':
        return audits
          .where('bias_status', 'in', ['PENDING', 'BIAS_ANALYSIS_FAILED'])
          .where('analysis_requested_at', '==', null)
          .where('created_at', '<', q.before)
          .orderBy('created_at');
      case 'pending':
        return audits.where('bias_status', '==', 'PENDING').where('analysis_requested_at', '<', q.before).orderBy('analysis_requested_at');
      case 'failed':
        // The attempt cap is the range field, so audits given up on never crowd out the page; age is checked below.
        return audits
          .where('bias_status', '==', 'BIAS_ANALYSIS_FAILED')
          .where('analysis_attempts', '<', q.maxAttempts ?? Number.MAX_SAFE_INTEGER)
          .orderBy('analysis_attempts');
      case 'unstreamed':
        return audits
          .where('bias_status', '==', 'ANALYZED')
          .where('stream_published_at', '==', null)
          .where('analyzed_at', '<', q.before)
          .orderBy('analyzed_at');
    }
  }

  async find(q: StaleAuditQuery): Promise<StaleAuditRef[]> {
    const out: StaleAuditRef[] = [];
    const pageSize = Math.min(Math.max(q.limit, 1), 500);
    // 'failed' filters age in memory, so it pages on; the others return exactly what they ask for.
    const maxScanned = q.kind === 'failed' ? q.limit * 5 : q.limit;
    let scanned = 0;
    let cursor: DocumentSnapshot | undefined;
    try {
      while (out.length < q.limit && scanned < maxScanned) {
        let query = this.query(q).limit(pageSize);
        if (cursor) query = query.startAfter(cursor);
        const snap = await query.get();
        for (const doc of snap.docs) {
          scanned++;
          if (!isTenantAudit(doc)) continue;
          const parsed = StoredAudit.safeParse(doc.data());
          if (!parsed.success) continue;
          const a = parsed.data;
          if (q.kind === 'failed' && a.analysis_requested_at !== null && a.analysis_requested_at >= q.before) continue;
          out.push({
            tenantId: a.tenant_id,
            auditId: a.id,
            traceId: a.trace_id,
            status: a.bias_status,
            attempts: a.analysis_attempts,
            analysisRequestedAt: a.analysis_requested_at,
          });
          if (out.length >= q.limit) break;
        }
        if (snap.docs.length < pageSize || q.kind !== 'failed') break;
        cursor = snap.docs.at(-1);
      }
    } catch (e) {
      throw transient(`stale-audit query (${q.kind}) failed`, e);
    }
    return out;
  }
}
