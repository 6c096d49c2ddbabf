// Use case behind POST /council-audit and the council-sessions consumer: audit one session (ADR-015), persist its
// BiasMetricRecords (ADR-018) to Firestore and the warehouse. Consent 0 stores nothing; raw text is never stored.
import { createHmac } from 'node:crypto';
import { buildMetricRecords, runSessionAudit, scoresOutsideScale } from '../domain/council';
import { forbidden, validationFailed } from '../errors';
import type { BiasAuditResult, CouncilSessionInput } from '../schemas/council';
import type { CouncilDeps } from './council-context';

export interface CouncilAuditRequest {
  input: CouncilSessionInput;
  /** From the verified token (HTTP) or the message (internal IAM-restricted topic). */
  tenantId: string | undefined;
}

export interface CouncilAuditOutcome {
  session_id: string;
  tenant_id: string;
  created: boolean;
  stored: boolean;
  records: number;
  audit: BiasAuditResult;
}

export const queryHash = (secret: string, query: string) => createHmac('sha256', secret).update(query, 'utf8').digest('hex');

export async function auditCouncilSession(
  deps: Pick<CouncilDeps, 'config' | 'log' | 'clock' | 'councilStore' | 'warehouse'>,
  req: CouncilAuditRequest,
): Promise<CouncilAuditOutcome> {
  const tenantId = req.tenantId ?? req.input.tenant_id;
  if (!tenantId) throw validationFailed([{ path: 'tenant_id', message: 'is required' }]);
  if (req.input.tenant_id && req.input.tenant_id !== tenantId) throw forbidden('tenant_id in the body does not match the tenant of the token');
  const outside = scoresOutsideScale(req.input);
  if (outside.length) throw validationFailed(outside);

  const { config } = deps;
  const audit = runSessionAudit(req.input, {
    lengthCorrelation: config.COUNCIL_LENGTH_CORRELATION_THRESHOLD,
    positionVariance: config.COUNCIL_POSITION_VARIANCE_THRESHOLD,
  });
  const log = deps.log.child({ tenantId, sessionId: req.input.session_id });
  if (req.input.consent_level === 0) {
    log.info('council session audited; consent 0, nothing stored', { risk: audit.overall_bias_risk });
    return { session_id: req.input.session_id, tenant_id: tenantId, created: false, stored: false, records: 0, audit };
  }
  let hash: string | null = null;
  if (req.input.consent_level === 4 && req.input.query !== undefined) {
    if (config.HMAC_SECRET) hash = queryHash(config.HMAC_SECRET, req.input.query);
    else log.warn('consent 4 without HMAC_SECRET configured: query_hash left null');
  }
  const now = deps.clock.now().toISOString();
  const timestamp = req.input.timestamp ? new Date(req.input.timestamp).toISOString() : now;
  const { records, skipped } = buildMetricRecords(req.input, { tenantId, timestamp, queryHash: hash });
  const { created, existing } = await deps.councilStore.createSession(
    {
      session_id: req.input.session_id,
      tenant_id: tenantId,
      timestamp,
      consent_level: req.input.consent_level,
      council_config_version: req.input.council_config_version,
      score_scale: req.input.score_scale,
      models: req.input.stage1.map((s) => s.model),
      record_count: records.length,
      audit,
      created_at: now,
    },
    records,
  );
  // A repeat re-appends the first delivery's records (same ids: ignored) so a crash between the two stores heals.
  const stored = created ? records : (existing ? buildMetricRecords(req.input, { tenantId, timestamp: existing.timestamp, queryHash: hash }).records : records);
  const { inserted } = await deps.warehouse.appendRecords(stored);
  log.info('council session audited', { created, records: stored.length, inserted, skipped, risk: audit.overall_bias_risk });
  return { session_id: req.input.session_id, tenant_id: tenantId, created, stored: true, records: stored.length, audit: created || !existing ? audit : existing.audit };
}
