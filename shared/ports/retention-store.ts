// What the retention job needs from the audit database besides AuditStore (which it uses for anonymisation,
// so every change is sealed by a chain event).
import type { RollupInput } from '../domain/retention/rollup';
import type { RetentionCursor, RetentionReport } from '../schemas/retention';

export interface RecordKey {
  id: string;
  created_at: string;
}

export interface RetentionStore {
  /** Tenants with data (tenant documents, including ones that exist only as a parent of audits). */
  listTenants(): Promise<string[]>;
  /** Raw `tenants/{t}/config/retention` document, or null. */
  policyDoc(tenantId: string): Promise<unknown>;
  cursor(tenantId: string): Promise<RetentionCursor | null>;
  /** `expiresAt` feeds the TTL policy that removes cursors of tenants that no longer run. */
  saveCursor(tenantId: string, cursor: RetentionCursor, expiresAt: Date): Promise<void>;
  /** Not-yet-anonymised records with from <= created_at < before, in (created_at, id) order, after `after`. */
  anonymizeCandidates(tenantId: string, from: string, before: string, after: RecordKey | null, limit: number): Promise<RecordKey[]>;
  /** The oldest record with from <= created_at < before, or null. */
  oldestBetween(tenantId: string, from: string, before: string): Promise<RecordKey | null>;
  /** Records with start <= created_at < end, in (created_at, id) order, after `after`. */
  recordsBetween(tenantId: string, start: string, end: string, after: RecordKey | null, limit: number): Promise<(RollupInput & RecordKey)[]>;
  /** Deletes the records and their event histories. Returns how many documents of each were deleted. */
  purge(tenantId: string, ids: readonly string[]): Promise<{ records: number; events: number }>;
  saveRunReport(report: RetentionReport, expiresAt: Date): Promise<void>;
}
