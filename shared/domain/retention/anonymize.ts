// Anonymisation transform: what a record looks like after the anonymisation age. Pure: the caller seals the
// result with an `anonymized` event (AuditStore.applyEvent), so the hash chain stays verifiable.
import { createHmac } from 'node:crypto';
import type { AuditRecord } from '../../schemas/audit';

/** Free-text and personal fields that are removed. Hashes, model, bias fields and review verdicts stay. */
export const REMOVED_FIELDS = [
  'original_query',
  'sanitized_prompt',
  'llm_response',
  'prompt_variables',
  'user_email',
  'review_notes',
  'error_message',
  'query_context',
] as const;

/** Keys inside analyzer output that quote the response (evidence spans, rewrite suggestions, explanations). */
const QUOTING_KEYS = new Set(['text', 'explanation', 'suggestion', 'details', 'evidence', 'excerpt', 'quote', 'snippet']);

export const ANONYMIZED_USER_PREFIX = 'anon:';

/** Keyed hash of a user id: stable per tenant (so per-user counts still work), not reversible without the key. */
export function pseudonymizeUserId(secret: string, tenantId: string, userId: string): string {
  if (userId.startsWith(ANONYMIZED_USER_PREFIX)) return userId;
  const mac = createHmac('sha256', secret).update(`${tenantId}\u0000${userId}`, 'utf8').digest('hex');
  return `${ANONYMIZED_USER_PREFIX}${mac}`;
}

/** Removes quoted text from analyzer output, keeping its structure, scores, types and span offsets. */
export function scrubQuotedText(value: unknown, depth = 0): unknown {
  if (depth > 32) return null;
  if (Array.isArray(value)) return value.map((v) => scrubQuotedText(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (QUOTING_KEYS.has(k) && typeof v === 'string') continue;
      out[k] = scrubQuotedText(v, depth + 1);
    }
    return out;
  }
  return value;
}

export const isAnonymized = (r: Pick<AuditRecord, 'anonymized_at'>) => r.anonymized_at !== null;

export function anonymizeRecord(record: AuditRecord, opts: { secret: string; at: string }): AuditRecord {
  return {
    ...record,
    original_query: '',
    sanitized_prompt: null,
    llm_response: '',
    prompt_variables: null,
    user_email: null,
    review_notes: null,
    error_message: null,
    query_context: null,
    user_id: record.user_id === null ? null : pseudonymizeUserId(opts.secret, record.tenant_id, record.user_id),
    mitigation_action: record.mitigation_action === null ? null : (scrubQuotedText(record.mitigation_action) as Record<string, unknown>),
    bias_report_summary: record.bias_report_summary === null ? null : (scrubQuotedText(record.bias_report_summary) as Record<string, unknown>),
    anonymized_at: opts.at,
  };
}

/** The event payload: what was done, never the removed values. */
export const anonymizedEventPayload = (policyDays: number) => ({
  policy_anonymize_after_days: policyDays,
  removed_fields: [...REMOVED_FIELDS],
  user_id: 'hmac-sha256',
  analyzer_quotes: 'removed',
});
