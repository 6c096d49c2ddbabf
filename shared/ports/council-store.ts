// Firestore side of council audits: session documents, append-only metric records, reports and alert claims.
import type { BiasAuditResult, BiasMetricRecord, BiasReportJson } from '../schemas/council';

export interface CouncilSessionDoc {
  session_id: string;
  tenant_id: string;
  timestamp: string;
  consent_level: number;
  council_config_version: string;
  score_scale: string;
  models: string[];
  record_count: number;
  audit: BiasAuditResult;
  created_at: string;
}

export interface StoredAlert {
  alert_id: string;
  tenant_id: string;
  kind: string;
  subject: string;
  window_start: string | null;
  window_end: string | null;
  detail: Record<string, unknown>;
  created_at: string;
  published_at: string | null;
}

export interface CouncilStore {
  /** Creates the session document and its metric records in one batch; false when the session already exists. */
  createSession(doc: CouncilSessionDoc, records: readonly BiasMetricRecord[]): Promise<{ created: boolean; existing: CouncilSessionDoc | null }>;
  /** Writes tenants/{t}/bias_reports/latest and an immutable history document. */
  saveReport(tenantId: string, report: BiasReportJson): Promise<void>;
  /** Claims an alert id; returns the stored alert and whether it still needs publishing. */
  claimAlert(alert: StoredAlert): Promise<{ needsPublish: boolean }>;
  markAlertPublished(tenantId: string, alertId: string, at: string): Promise<void>;
}
