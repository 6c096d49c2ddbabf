// Writing analysis results: one path for the analyzer worker and the updateLlmInteractionAuditBias mutation.
import { biasUpdateFromReport, withAnalysisFailure, withBiasUpdate, type BiasUpdate } from '../domain/audit/record';
import { analysisFailed, isAppError, notFound } from '../errors';
import type { Logger } from '../logging';
import type { BiasAnalyzer } from '../ports/analyzer';
import type { AuditStore } from '../ports/audit-store';
import type { Clock } from '../ports/clock';
import type { EventBus } from '../ports/event-bus';
import type { StoredAudit } from '../schemas/audit';
import type { AnalysisRequestMessage, AuditStreamEvent } from '../schemas/messages';
import { TOPICS } from '../topology';

export interface ResultDeps {
  store: AuditStore;
  bus: EventBus;
  clock: Clock;
  log: Logger;
}

/** If a worker died between sealing a result and publishing it, a redelivery publishes after this grace period. */
const STREAM_REPUBLISH_GRACE_MS = 30_000;

export const streamEventOf = (a: StoredAudit): AuditStreamEvent => ({
  audit_id: a.id,
  tenant_id: a.tenant_id,
  bias_detected: a.bias_detected,
  bias_score: a.bias_score,
  bias_type: a.bias_type,
  bias_confidence_score: a.bias_confidence_score ?? 0,
  timestamp: a.analyzed_at ?? a.created_at,
  trace_id: a.trace_id,
});

async function publishStream(deps: ResultDeps, audit: StoredAudit) {
  await deps.bus.publish(TOPICS.auditStream, streamEventOf(audit), {
    audit_id: audit.id,
    tenant_id: audit.tenant_id,
    trace_id: audit.trace_id,
  });
  await deps.store.markStreamPublished(audit.tenant_id, audit.id, deps.clock.now().toISOString());
}

export async function applyBiasUpdate(
  deps: ResultDeps,
  req: { tenantId: string; auditId: string; update: BiasUpdate; actor: string; key: string | null },
): Promise<StoredAudit> {
  const at = deps.clock.now().toISOString();
  const result = await deps.store.applyEvent(req.tenantId, req.auditId, req.key, (current) => ({
    draft: { type: 'bias_analyzed', at, key: req.key, actor: req.actor, payload: { bias_detected: req.update.bias_detected ?? current.bias_detected, bias_type: req.update.bias_type ?? current.bias_type } },
    next: withBiasUpdate(current, req.update, at),
  }));
  const stale = result.audit.analyzed_at && deps.clock.now().getTime() - Date.parse(result.audit.analyzed_at) > STREAM_REPUBLISH_GRACE_MS;
  if (result.applied || (!result.audit.stream_published_at && stale)) await publishStream(deps, result.audit);
  return result.audit;
}

export async function analyzeAudit(
  deps: ResultDeps & { analyzer: BiasAnalyzer },
  msg: AnalysisRequestMessage,
): Promise<StoredAudit> {
  const audit = await deps.store.get(msg.tenant_id, msg.audit_id);
  if (!audit) throw notFound(`audit ${msg.audit_id} of tenant ${msg.tenant_id}`);
  const log = deps.log.child({ traceId: audit.trace_id, tenantId: audit.tenant_id, auditId: audit.id });
  if (audit.bias_status === 'ANALYZED') {
    // Duplicate delivery: the verdict stands; only finish a stream publish a crashed worker left behind.
    return applyBiasUpdate(deps, { tenantId: audit.tenant_id, auditId: audit.id, update: {}, actor: 'analyzer', key: 'bias_analyzed' });
  }
  let update: BiasUpdate;
  try {
    const report = await deps.analyzer.analyze(
      {
        llm_response: audit.llm_response,
        original_query: audit.original_query,
        ...(audit.query_context !== null ? { query_context: audit.query_context } : {}),
        ...(audit.user_id !== null ? { user_id: audit.user_id } : {}),
        tenant_id: audit.tenant_id,
        llm_model: audit.llm_model,
      },
      audit.tenant_id,
      { attempt: audit.analysis_attempts },
    );
    update = biasUpdateFromReport(report);
  } catch (e) {
    const code = isAppError(e) ? e.code : e instanceof Error ? e.name : 'Error';
    await deps.store.applyEvent(audit.tenant_id, audit.id, null, (current) =>
      current.bias_status === 'ANALYZED'
        ? null
        : {
            draft: { type: 'analysis_failed', at: deps.clock.now().toISOString(), key: null, actor: 'analyzer', payload: { error: code, attempt: current.analysis_attempts + 1 } },
            next: withAnalysisFailure(current, code),
          },
    );
    log.warn('bias analysis failed; audit marked BIAS_ANALYSIS_FAILED', { attempt: audit.analysis_attempts + 1, error: code });
    throw analysisFailed(`analysis of ${audit.id} failed`, e);
  }
  const saved = await applyBiasUpdate(deps, { tenantId: audit.tenant_id, auditId: audit.id, update, actor: 'analyzer', key: 'bias_analyzed' });
  log.info('bias analysed', { biasDetected: saved.bias_detected, biasTypes: saved.bias_type });
  return saved;
}
