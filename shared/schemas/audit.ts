// The stored audit record, `tenants/{tenant_id}/audits/{id}`, and its hash-chained events.
import { z } from 'zod';
import { JsonObject } from './common';

export const BiasStatus = z.enum(['PENDING', 'ANALYZED', 'BIAS_ANALYSIS_FAILED']);
export type BiasStatus = z.infer<typeof BiasStatus>;

export const ReviewVerdict = z.enum(['CONFIRMED', 'DISMISSED']);

export const AuditRecord = z.object({
  id: z.string(),
  tenant_id: z.string(),
  trace_id: z.string(),
  user_id: z.string().nullable(),
  user_email: z.string().nullable(),
  user_role: z.string().nullable(),
  query_context: z.union([JsonObject, z.string()]).nullable(),
  original_query: z.string(),
  sanitized_prompt: z.string().nullable(),
  prompt_template: z.string().nullable(),
  prompt_variables: JsonObject.nullable(),
  llm_provider: z.string(),
  llm_model: z.string(),
  llm_model_version: z.string().nullable(),
  region: z.string().nullable(),
  operation: z.string().nullable(),
  llm_response: z.string(),
  prompt_tokens: z.number().nullable(),
  response_tokens: z.number().nullable(),
  estimated_cost_usd: z.number().nullable(),
  latency_ms: z.number().nullable(),
  redaction_summary: z.record(z.string(), z.number()),
  sensitivity_score: z.string().nullable(),
  contained_pii: z.boolean(),
  contained_proprietary: z.boolean(),
  contained_customer_data: z.boolean(),
  status: z.string(),
  error_message: z.string().nullable(),
  log_timestamp: z.string(),
  created_at: z.string(),
  decision_id: z.string().nullable(),
  prompt_hash: z.string(),
  output_hash: z.string(),
  // Bias analysis (FR-BIAS-4.1.1)
  bias_status: BiasStatus,
  bias_detected: z.boolean(),
  bias_type: z.array(z.string()),
  bias_score: z.record(z.string(), z.number()),
  bias_confidence_score: z.number().nullable(),
  /** Highest taxonomy severity (1–5) among bias_type; 0 when none. Derived, for triage sorting. */
  bias_severity: z.number().int().min(0).max(5).default(0),
  mitigation_action: JsonObject.nullable(),
  bias_report_summary: JsonObject.nullable(),
  analyzed_at: z.string().nullable(),
  analysis_attempts: z.number().int(),
  analysis_error: z.string().nullable(),
  // Human review (FR-BIAS-4.6)
  human_reviewed: z.boolean(),
  human_bias_tag: z.unknown().nullable(),
  review_notes: z.string().nullable(),
  review_verdict: ReviewVerdict.nullable(),
  reviewed_by: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  // Retention
  anonymized_at: z.string().nullable(),
});
export type AuditRecord = z.infer<typeof AuditRecord>;

/** Bookkeeping kept beside the sealed record; never part of the state digest. */
export const AuditBookkeeping = z.object({
  chain_head: z.object({ seq: z.number().int(), hash: z.string() }),
  event_keys: z.array(z.string()),
  analysis_requested_at: z.string().nullable(),
  stream_published_at: z.string().nullable(),
});
export type AuditBookkeeping = z.infer<typeof AuditBookkeeping>;

export const StoredAudit = AuditRecord.extend(AuditBookkeeping.shape);
export type StoredAudit = z.infer<typeof StoredAudit>;

export const AuditEventType = z.enum(['created', 'bias_analyzed', 'analysis_failed', 'reviewed', 'anonymized', 'bias_updated']);
export type AuditEventType = z.infer<typeof AuditEventType>;

export const AuditEvent = z.object({
  seq: z.number().int().min(1),
  type: AuditEventType,
  at: z.string(),
  key: z.string().nullable(),
  actor: z.string(),
  payload: JsonObject,
  /** SHA-256 of the sealed record after this event was applied. */
  state_digest: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;
