// Read side of the audit store: filtered, sorted, paginated listings for the GraphQL API.
// Every method takes the tenant explicitly; callers pass the tenant of the verified token only.
import type { StoredAudit } from '../schemas/audit';

/** Stored field an audit listing is ordered by (ties broken by document id, same direction). */
export type AuditSortField = 'log_timestamp' | 'bias_confidence_score' | 'bias_severity';
export type SortDirection = 'asc' | 'desc';
export interface AuditSort {
  field: AuditSortField;
  direction: SortDirection;
}

/** LlmInteractionAuditFilterInput (FR-BIAS-4.2.1) plus the extras a review queue needs. Absent = no constraint. */
export interface AuditFilter {
  userId?: string | undefined;
  llmProvider?: string | undefined;
  llmModel?: string | undefined;
  sensitivityScore?: string | undefined;
  biasDetected?: boolean | undefined;
  humanReviewed?: boolean | undefined;
  biasStatus?: string | undefined;
  decisionId?: string | undefined;
  reviewVerdict?: string | undefined;
  /** Audits whose bias_type contains this key. */
  biasType?: string | undefined;
  /** Inclusive ISO-8601 bounds on log_timestamp. */
  logTimestampStart?: string | undefined;
  logTimestampEnd?: string | undefined;
  minConfidence?: number | undefined;
}

export interface AuditPage {
  items: { audit: StoredAudit; cursor: string }[];
  hasNextPage: boolean;
  /** Cursor after the last document examined (may be past the last item when filters ran in memory). */
  endCursor: string | null;
  /** Documents read to build the page; > items when part of the filter ran in memory. */
  scanned: number;
}

export interface AuditQuery {
  /** Cursor pagination: `first` items after the opaque cursor `after`. */
  page(tenantId: string, filter: AuditFilter, sort: AuditSort, opts: { first: number; after?: string | null | undefined }): Promise<AuditPage>;
  /** Offset pagination (FSD PaginationInput). */
  list(tenantId: string, filter: AuditFilter, sort: AuditSort, opts: { limit: number; offset: number }): Promise<StoredAudit[]>;
  /** Interactions of one decision, oldest first. */
  byDecision(tenantId: string, decisionId: string, limit: number): Promise<StoredAudit[]>;
}
