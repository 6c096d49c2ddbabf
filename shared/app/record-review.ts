// recordBiasReview (FR-BIAS-4.6.2/4.6.3): a reviewer's verdict, tags and notes are sealed as a `reviewed` event
// beside the machine verdict (never replacing it), published to bias-reviews, and counted for task suggestions.
import { withReview } from '../domain/audit/record';
import { validateReview, type ReviewDraft } from '../domain/review';
import { domainOf } from '../domain/task-suggestions';
import { validationFailed } from '../errors';
import type { AuditStore } from '../ports/audit-store';
import type { TaxonomyRepo } from '../ports/catalog';
import type { StoredAudit } from '../schemas/audit';
import type { BiasReviewEvent } from '../schemas/review';
import { TOPICS } from '../topology';
import { noteBiasSignal, type TaskSuggestionDeps } from './task-suggestions';

export interface ReviewDeps extends TaskSuggestionDeps {
  store: AuditStore;
  taxonomy: TaxonomyRepo;
}

export interface ReviewRequest {
  tenantId: string;
  auditId: string;
  reviewerId: string;
  review: ReviewDraft;
  /** A client-chosen key makes a retried mutation apply once. */
  idempotencyKey?: string | null | undefined;
}

export async function recordReview(deps: ReviewDeps, req: ReviewRequest): Promise<StoredAudit> {
  const taxonomy = await deps.taxonomy.list(req.tenantId);
  const { tags, issues } = validateReview(req.review, new Set(taxonomy.map((t) => t.bias_key)));
  if (issues.length) throw validationFailed(issues);
  const at = deps.clock.now().toISOString();
  const key = req.idempotencyKey ? `review:${req.idempotencyKey}` : null;
  const result = await deps.store.applyEvent(req.tenantId, req.auditId, key, (current) => ({
    draft: {
      type: 'reviewed',
      at,
      key,
      actor: req.reviewerId,
      payload: {
        human_reviewed: req.review.humanReviewed,
        verdict: req.review.verdict,
        human_bias_tag: tags,
        review_notes: req.review.reviewNotes,
        previous_verdict: current.review_verdict,
        machine_bias_detected: current.bias_detected,
        machine_bias_type: current.bias_type,
      },
    },
    next: withReview(current, { ...req.review, humanBiasTag: tags, reviewerId: req.reviewerId }, at),
  }));
  const audit = result.audit;
  if (!result.applied && !key) return audit;
  const event: BiasReviewEvent = {
    tenant_id: audit.tenant_id,
    audit_id: audit.id,
    trace_id: audit.trace_id,
    event_seq: audit.chain_head.seq,
    human_reviewed: audit.human_reviewed,
    verdict: audit.review_verdict,
    human_bias_tag: Array.isArray(audit.human_bias_tag) ? (audit.human_bias_tag as string[]) : null,
    machine_bias_detected: audit.bias_detected,
    machine_bias_type: audit.bias_type,
    machine_confidence: audit.bias_confidence_score,
    llm_model: audit.llm_model,
    domain: domainOf(audit),
    reviewer_id: audit.reviewed_by ?? req.reviewerId,
    reviewed_at: audit.reviewed_at ?? at,
  };
  // At least once: a retry with the same idempotency key republishes; consumers dedupe on (audit_id, event_seq).
  await deps.bus.publish(TOPICS.reviews, event, { tenant_id: audit.tenant_id, audit_id: audit.id, trace_id: audit.trace_id });
  if (audit.review_verdict === 'CONFIRMED') {
    const types = tags && tags.length ? tags : audit.bias_type;
    if (types.length) await noteBiasSignal(deps, audit, 'confirmed', types);
  }
  return audit;
}
