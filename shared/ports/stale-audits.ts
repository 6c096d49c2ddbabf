import type { BiasStatus } from '../schemas/audit';

/** An audit whose analysis may have been lost: enough to re-request it, no text. */
export interface StaleAuditRef {
  tenantId: string;
  auditId: string;
  traceId: string;
  status: BiasStatus;
  attempts: number;
  analysisRequestedAt: string | null;
}

export type StaleKind =
  /** PENDING (or FAILED) and never marked as requested: the writer died between create and publish. */
  | 'unrequested'
  /** PENDING, requested before `before`: the request message was lost (or is still queued; a repeat is harmless). */
  | 'pending'
  /** BIAS_ANALYSIS_FAILED with fewer than `maxAttempts` attempts and last requested before `before` (dead-lettered). */
  | 'failed'
  /** ANALYZED before `before` but never published to bias.audit.stream: the worker died between seal and publish. */
  | 'unstreamed';

export interface StaleAuditQuery {
  kind: StaleKind;
  /** ISO timestamp: only audits older than this. */
  before: string;
  limit: number;
  /** For 'failed': audits at or past this many attempts are left alone (they stay FAILED for a human). */
  maxAttempts?: number;
}

/** Cross-tenant look-up for the analysis sweeper (a collection-group query in Firestore). */
export interface StaleAuditFinder {
  find(query: StaleAuditQuery): Promise<StaleAuditRef[]>;
}
