// Pure construction and state transitions of an audit record. Every change to a stored record is one of these,
// sealed by an event (see chain.ts).
import type { AuditRecord } from '../../schemas/audit';
import type { BiasReport } from '../../schemas/analysis';
import type { LlmInteractionInput } from '../../schemas/interaction';
import { sha256Hex } from '../canonical-json';
import { maskJson, maskText, totalRedactions, type RedactionCounts } from '../pii';
import { DEFAULT_TAXONOMY } from '../taxonomy';

const SEVERITY = new Map(DEFAULT_TAXONOMY.map((t) => [t.bias_key, t.severity_level]));
/** Highest severity among the bias types; 0 when there are none. */
export const severityOf = (biasType: readonly string[]) => Math.max(0, ...biasType.map((t) => SEVERITY.get(t) ?? 0));

export function newAuditRecord(
  input: LlmInteractionInput,
  ctx: { id: string; tenantId: string; traceId: string; now: string },
): AuditRecord {
  const counts: RedactionCounts = {};
  const originalQuery = maskText(input.original_query, counts).text;
  const sanitizedPrompt = input.sanitized_prompt === undefined ? null : maskText(input.sanitized_prompt, counts).text;
  const response = maskText(input.llm_response, counts).text;
  const promptVariables = input.prompt_variables === undefined ? null : maskJson(input.prompt_variables, counts);
  const queryContext = input.query_context === undefined ? null : maskJson(input.query_context, counts);
  const redactionSummary: Record<string, number> = { ...counts } as Record<string, number>;
  return {
    id: ctx.id,
    tenant_id: ctx.tenantId,
    trace_id: ctx.traceId,
    user_id: input.user_id ?? null,
    user_email: input.user_email ?? null,
    user_role: input.user_role ?? null,
    query_context: queryContext,
    original_query: originalQuery,
    sanitized_prompt: sanitizedPrompt,
    prompt_template: input.prompt_template ?? null,
    prompt_variables: promptVariables,
    llm_provider: input.llm_provider,
    llm_model: input.llm_model,
    llm_model_version: input.llm_model_version ?? null,
    region: input.region ?? null,
    operation: input.operation ?? null,
    llm_response: response,
    prompt_tokens: input.prompt_tokens ?? null,
    response_tokens: input.response_tokens ?? null,
    estimated_cost_usd: input.estimated_cost_usd ?? null,
    latency_ms: input.latency_ms ?? null,
    redaction_summary: redactionSummary,
    sensitivity_score: input.sensitivity_score ?? null,
    contained_pii: totalRedactions(counts) > 0,
    contained_proprietary: input.contained_proprietary ?? false,
    contained_customer_data: input.contained_customer_data ?? false,
    status: input.status,
    error_message: input.error_message ?? null,
    log_timestamp: input.log_timestamp ? new Date(input.log_timestamp).toISOString() : ctx.now,
    created_at: ctx.now,
    decision_id: input.decision_id ?? null,
    // Hashes of the unmasked text, so a caller holding the original can prove what was sent.
    prompt_hash: sha256Hex(input.sanitized_prompt ?? input.original_query),
    output_hash: sha256Hex(input.llm_response),
    bias_status: 'PENDING',
    bias_detected: false,
    bias_type: [],
    bias_score: {},
    bias_confidence_score: null,
    bias_severity: 0,
    mitigation_action: null,
    bias_report_summary: null,
    analyzed_at: null,
    analysis_attempts: 0,
    analysis_error: null,
    human_reviewed: false,
    human_bias_tag: null,
    review_notes: null,
    review_verdict: null,
    reviewed_by: null,
    reviewed_at: null,
    anonymized_at: null,
  };
}

/** Fields a repeat delivery must agree on for it to count as the same interaction. */
export const contentFingerprint = (r: Pick<AuditRecord, 'prompt_hash' | 'output_hash' | 'llm_model'>) =>
  `${r.prompt_hash}:${r.output_hash}:${r.llm_model}`;

export type BiasUpdate = Partial<Pick<AuditRecord, 'bias_detected' | 'bias_type' | 'bias_score' | 'bias_confidence_score' | 'mitigation_action' | 'bias_report_summary'>>;

export function biasUpdateFromReport(report: BiasReport): Required<BiasUpdate> {
  return {
    bias_detected: report.bias_detected,
    bias_type: report.bias_type,
    bias_score: report.bias_score,
    // DECIMAL(5,2) in the FSD; we keep 4 places, enough for calibrated probabilities.
    bias_confidence_score: Math.round(report.confidence * 10_000) / 10_000,
    mitigation_action: report.mitigation_action,
    bias_report_summary: report.bias_report_summary,
  };
}

export function withBiasUpdate(record: AuditRecord, update: BiasUpdate, at: string): AuditRecord {
  const next = { ...record, ...update };
  return { ...next, bias_severity: next.bias_detected ? severityOf(next.bias_type) : 0, bias_status: 'ANALYZED', analyzed_at: at, analysis_error: null };
}

export function withAnalysisFailure(record: AuditRecord, errorCode: string): AuditRecord {
  return {
    ...record,
    // A failure after a successful analysis (duplicate delivery) must not erase the verdict.
    bias_status: record.bias_status === 'ANALYZED' ? 'ANALYZED' : 'BIAS_ANALYSIS_FAILED',
    analysis_attempts: record.analysis_attempts + 1,
    analysis_error: errorCode,
  };
}

export interface ReviewInput {
  humanReviewed: boolean;
  verdict: 'CONFIRMED' | 'DISMISSED' | null;
  humanBiasTag: unknown;
  reviewNotes: string | null;
  reviewerId: string;
}

/** Reviews sit beside the machine verdict; they never overwrite bias_detected or the report. */
export function withReview(record: AuditRecord, review: ReviewInput, at: string): AuditRecord {
  return {
    ...record,
    human_reviewed: review.humanReviewed,
    review_verdict: review.verdict,
    human_bias_tag: review.humanBiasTag ?? null,
    review_notes: review.reviewNotes,
    reviewed_by: review.reviewerId,
    reviewed_at: at,
  };
}
