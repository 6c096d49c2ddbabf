// Pub/Sub payloads of the human-review loop: `bias-reviews` (feedback for the detectors) and `bias-task-suggestions`.
import { z } from 'zod';
import { ReviewVerdict } from './audit';

export const BiasReviewEvent = z
  .object({
    tenant_id: z.string(),
    audit_id: z.string(),
    trace_id: z.string(),
    event_seq: z.number().int(),
    human_reviewed: z.boolean(),
    verdict: ReviewVerdict.nullable(),
    human_bias_tag: z.array(z.string()).nullable(),
    machine_bias_detected: z.boolean(),
    machine_bias_type: z.array(z.string()),
    machine_confidence: z.number().nullable(),
    llm_model: z.string(),
    domain: z.string(),
    reviewer_id: z.string(),
    reviewed_at: z.string(),
  })
  .strict();
export type BiasReviewEvent = z.infer<typeof BiasReviewEvent>;

export const TaskSuggestionEvent = z
  .object({
    tenant_id: z.string(),
    suggestion_id: z.string(),
    bias_type: z.string(),
    domain: z.string(),
    count: z.number().int(),
    threshold: z.number().int(),
    window_start: z.string(),
    window_end: z.string(),
    title: z.string(),
    trigger_audit_id: z.string(),
  })
  .strict();
export type TaskSuggestionEvent = z.infer<typeof TaskSuggestionEvent>;
