import type { AuditEvent, AuditRecord, StoredAudit } from '../schemas/audit';
import type { EventDraft } from '../domain/audit/chain';

export interface CreateAuditResult {
  created: boolean;
  audit: StoredAudit;
}

/** What an event does to a record: computed from the current state inside the store's transaction. */
export interface Transition {
  draft: EventDraft;
  next: AuditRecord;
}

export interface ApplyEventResult {
  /** False when the idempotency key was already applied or the transition declined. */
  applied: boolean;
  audit: StoredAudit;
  event: AuditEvent | null;
}

export interface AuditStore {
  /** Idempotent create keyed by the record id; returns the existing record on a repeat. */
  create(record: AuditRecord, created: EventDraft): Promise<CreateAuditResult>;
  get(tenantId: string, auditId: string): Promise<StoredAudit | null>;
  /**
   * Atomically appends one event and applies its state change. An event with a key is applied at most once.
   * `transition` may return null to apply nothing.
   */
  applyEvent(
    tenantId: string,
    auditId: string,
    key: string | null,
    transition: (current: StoredAudit) => Transition | null,
  ): Promise<ApplyEventResult>;
  events(tenantId: string, auditId: string): Promise<(AuditEvent & { id: string })[]>;
  markAnalysisRequested(tenantId: string, auditId: string, at: string): Promise<void>;
  markStreamPublished(tenantId: string, auditId: string, at: string): Promise<void>;
}
