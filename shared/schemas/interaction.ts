// Ingest contract for one LLM interaction (FSD FR-BIAS-4.1.1 / 4.2.1 and the ai_prompt_audit fields).
import { z } from 'zod';
import { Id, IsoDateTime, JsonObject } from './common';

const Text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const LlmInteractionInput = z
  .object({
    interaction_id: Id.optional(),
    /** Accepted on the Pub/Sub path only; over HTTP the tenant comes from the verified token. */
    tenant_id: Id.optional(),
    user_id: Text(256).optional(),
    user_email: z.email().max(320).optional(),
    user_role: Text(128).optional(),
    query_context: z.union([JsonObject, Text(20_000)]).optional(),
    original_query: Text(200_000),
    sanitized_prompt: Text(400_000).optional(),
    prompt_template: Text(255).optional(),
    prompt_variables: JsonObject.optional(),
    llm_provider: Text(64).min(1),
    llm_model: Text(128).min(1),
    llm_model_version: Text(64).optional(),
    region: Text(64).optional(),
    operation: Text(100).optional(),
    llm_response: Text(400_000),
    prompt_tokens: z.number().int().min(0).max(10_000_000).optional(),
    response_tokens: z.number().int().min(0).max(10_000_000).optional(),
    estimated_cost_usd: z.number().min(0).max(1_000_000).optional(),
    latency_ms: z.number().int().min(0).max(86_400_000).optional(),
    sensitivity_score: z.enum(['public', 'internal', 'confidential', 'restricted']).optional(),
    contained_proprietary: z.boolean().optional(),
    contained_customer_data: z.boolean().optional(),
    status: z.enum(['success', 'failed', 'blocked_safety', 'blocked_budget', 'blocked_evidence']).default('success'),
    error_message: Text(2_000).optional(),
    log_timestamp: IsoDateTime.optional(),
    decision_id: Id.optional(),
    trace_id: z.string().regex(/^[0-9a-f]{32}$/, 'must be 32 lowercase hex characters').optional(),
  })
  .strict();
export type LlmInteractionInput = z.infer<typeof LlmInteractionInput>;
