// POST /analyze-bias contract (FR-BIAS-4.3.2) and the report the analyzer returns.
import { z } from 'zod';
import { Id, JsonObject } from './common';

export const CouncilResponse = z.object({ member_id: z.string().min(1).max(128), response: z.string().max(200_000) }).strict();

export const AnalyzeBiasRequest = z
  .object({
    /** Echoed by the CLI; ignored by the HTTP endpoint. */
    id: z.union([z.string().max(256), z.number()]).optional(),
    llm_response: z.string().max(200_000, 'must be at most 200000 characters'),
    original_query: z.string().max(200_000).default(''),
    query_context: z.union([JsonObject, z.string().max(20_000)]).optional(),
    user_id: z.string().max(256).optional(),
    tenant_id: Id.optional(),
    llm_model: z.string().max(128).optional(),
    council_responses: z.array(CouncilResponse).max(16).optional(),
  })
  .strict();
export type AnalyzeBiasRequest = z.infer<typeof AnalyzeBiasRequest>;

export const MitigationType = z.enum(['NONE', 'REPHRASE_RESPONSE', 'REPHRASE_PROMPT', 'HUMAN_REVIEW', 'BLOCK_RESPONSE']);

export const Span = z.object({ start: z.number().int().min(0), end: z.number().int().min(0), text: z.string() });
export type Span = z.infer<typeof Span>;

export const Finding = z.object({
  detector: z.string(),
  detector_version: z.string(),
  bias_type: z.array(z.string()).min(1),
  score: z.number().min(0).max(1),
  explanation: z.string(),
  spans: z.array(Span),
  suggestion: z.string().optional(),
  metric: z.string().optional(),
});
export type Finding = z.infer<typeof Finding>;

export const BiasReport = z.object({
  bias_detected: z.boolean(),
  bias_type: z.array(z.string()),
  bias_score: z.record(z.string(), z.number()),
  confidence: z.number().min(0).max(1),
  mitigation_action: z.object({ type: MitigationType, details: z.string() }).catchall(z.unknown()),
  bias_report_summary: JsonObject,
});
export type BiasReport = z.infer<typeof BiasReport>;
