// Use case behind POST /interactions and the llm-interactions consumer.
import { randomUUID } from 'node:crypto';
import { contentFingerprint, newAuditRecord } from '../domain/audit/record';
import { newTraceId, traceIdFromTraceparent } from '../domain/trace';
import { conflict, forbidden, validationFailed } from '../errors';
import type { Logger } from '../logging';
import type { AuditStore } from '../ports/audit-store';
import type { Clock } from '../ports/clock';
import type { EventBus } from '../ports/event-bus';
import type { StoredAudit } from '../schemas/audit';
import type { LlmInteractionInput } from '../schemas/interaction';
import type { AnalysisRequestMessage } from '../schemas/messages';
import { TOPICS } from '../topology';

export interface RecordDeps {
  store: AuditStore;
  bus: EventBus;
  clock: Clock;
  log: Logger;
}

export interface RecordRequest {
  input: LlmInteractionInput;
  /** From the verified token (HTTP) or the message (Pub/Sub, an IAM-restricted internal topic). */
  tenantId: string | undefined;
  traceparent?: string | undefined;
  actor: string;
}

export async function recordInteraction(deps: RecordDeps, req: RecordRequest): Promise<{ created: boolean; audit: StoredAudit }> {
  const tenantId = req.tenantId ?? req.input.tenant_id;
  if (!tenantId) throw validationFailed([{ path: 'tenant_id', message: 'is required' }]);
  if (req.input.tenant_id && req.input.tenant_id !== tenantId) {
    throw forbidden('tenant_id in the body does not match the tenant of the token');
  }
  const traceId = req.input.trace_id ?? traceIdFromTraceparent(req.traceparent) ?? newTraceId();
  const now = deps.clock.now().toISOString();
  const record = newAuditRecord(req.input, { id: req.input.interaction_id ?? randomUUID(), tenantId, traceId, now });
  const { created, audit } = await deps.store.create(record, {
    type: 'created',
    at: now,
    key: 'created',
    actor: req.actor,
    payload: { prompt_hash: record.prompt_hash, output_hash: record.output_hash, redaction_summary: record.redaction_summary },
  });
  const log = deps.log.child({ traceId: audit.trace_id, tenantId, auditId: audit.id });
  if (!created && contentFingerprint(audit) !== contentFingerprint(record)) {
    throw conflict(`interaction ${audit.id} already exists with different content`);
  }
  // A repeat also re-requests analysis when the first attempt crashed between create and publish.
  if (created || !audit.analysis_requested_at) {
    const message: AnalysisRequestMessage = { tenant_id: tenantId, audit_id: audit.id, trace_id: audit.trace_id };
    await deps.bus.publish(TOPICS.analysisRequests, message, { trace_id: audit.trace_id, tenant_id: tenantId });
    await deps.store.markAnalysisRequested(tenantId, audit.id, now);
  }
  log.info(created ? 'audit created' : 'duplicate interaction; existing audit returned', {
    redactions: Object.values(audit.redaction_summary).reduce((a, b) => a + b, 0),
  });
  return { created, audit };
}
