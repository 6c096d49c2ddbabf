// Firestore council documents: tenants/{t}/council_sessions/{session_id} with append-only metric_records/{record_id},
// tenants/{t}/bias_reports/{latest|history id} and tenants/{t}/bias_alerts/{alert_id}. Every create is create(),
// so redelivered sessions and repeated aggregate runs do not write twice.
import type { Firestore } from '@google-cloud/firestore';
import { transient } from '../../errors';
import type { CouncilSessionDoc, CouncilStore, StoredAlert } from '../../ports/council-store';
import type { BiasMetricRecord, BiasReportJson } from '../../schemas/council';
import { GRPC_ALREADY_EXISTS, grpcCode } from './client';
import { tenantDoc } from './paths';

export const councilSessionsCol = (db: Firestore, t: string) => tenantDoc(db, t).collection('council_sessions');
export const metricRecordsCol = (db: Firestore, t: string, sessionId: string) => councilSessionsCol(db, t).doc(sessionId).collection('metric_records');
export const biasReportsCol = (db: Firestore, t: string) => tenantDoc(db, t).collection('bias_reports');
export const biasAlertsCol = (db: Firestore, t: string) => tenantDoc(db, t).collection('bias_alerts');

/** History document id for a report: sortable by time. */
export const reportHistoryId = (generatedAt: string) => `r-${generatedAt.replace(/[:.]/g, '-')}`;

const MAX_BATCH = 450;

export class FirestoreCouncilStore implements CouncilStore {
  constructor(private readonly db: Firestore) {}

  async createSession(doc: CouncilSessionDoc, records: readonly BiasMetricRecord[]) {
    const sessionRef = councilSessionsCol(this.db, doc.tenant_id).doc(doc.session_id);
    const recordsCol = metricRecordsCol(this.db, doc.tenant_id, doc.session_id);
    try {
      if (records.length + 1 <= MAX_BATCH) {
        const batch = this.db.batch();
        for (const r of records) batch.create(recordsCol.doc(r.record_id), r);
        batch.create(sessionRef, doc);
        await batch.commit();
        return { created: true, existing: null };
      }
      // Large councils: records first (each create idempotent on its own), the session document last as the marker.
      const existing = await sessionRef.get();
      if (existing.exists) return { created: false, existing: existing.data() as CouncilSessionDoc };
      for (let i = 0; i < records.length; i += MAX_BATCH) {
        await Promise.all(
          records.slice(i, i + MAX_BATCH).map((r) =>
            recordsCol
              .doc(r.record_id)
              .create(r)
              .catch((e: unknown) => {
                if (grpcCode(e) !== GRPC_ALREADY_EXISTS) throw e;
              }),
          ),
        );
      }
      await sessionRef.create(doc);
      return { created: true, existing: null };
    } catch (e) {
      if (grpcCode(e) !== GRPC_ALREADY_EXISTS) throw transient('council store unavailable', e);
      const snap = await sessionRef.get();
      return { created: false, existing: snap.exists ? (snap.data() as CouncilSessionDoc) : null };
    }
  }

  async saveReport(tenantId: string, report: BiasReportJson): Promise<void> {
    const col = biasReportsCol(this.db, tenantId);
    try {
      await col.doc(reportHistoryId(report.generated_at)).create(report);
    } catch (e) {
      if (grpcCode(e) !== GRPC_ALREADY_EXISTS) throw transient('council store unavailable', e);
    }
    // latest only moves forward: a late retry of an older run must not overwrite a newer report.
    await this.db.runTransaction(async (tx) => {
      const ref = col.doc('latest');
      const snap = await tx.get(ref);
      const current = snap.exists ? (snap.data() as { generated_at?: string }).generated_at : undefined;
      if (!current || current <= report.generated_at) tx.set(ref, report);
    });
  }

  async claimAlert(alert: StoredAlert): Promise<{ needsPublish: boolean }> {
    const ref = biasAlertsCol(this.db, alert.tenant_id).doc(alert.alert_id);
    try {
      await ref.create(alert);
      return { needsPublish: true };
    } catch (e) {
      if (grpcCode(e) !== GRPC_ALREADY_EXISTS) throw transient('council store unavailable', e);
      const snap = await ref.get();
      return { needsPublish: !(snap.data() as StoredAlert | undefined)?.published_at };
    }
  }

  async markAlertPublished(tenantId: string, alertId: string, at: string): Promise<void> {
    await biasAlertsCol(this.db, tenantId).doc(alertId).update({ published_at: at });
  }
}
