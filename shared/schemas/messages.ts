// Pub/Sub payloads. Analysis requests carry ids only: text stays in Firestore, off the bus.
import { z } from 'zod';
import { Id, IsoDateTime } from './common';

export const AnalysisRequestMessage = z
  .object({ tenant_id: Id, audit_id: Id, trace_id: z.string().regex(/^[0-9a-f]{32}$/) })
  .strict();
export type AnalysisRequestMessage = z.infer<typeof AnalysisRequestMessage>;

/** FR-BIAS-4.4.5, exactly. */
export const AuditStreamEvent = z
  .object({
    audit_id: z.string(),
    tenant_id: z.string(),
    bias_detected: z.boolean(),
    bias_score: z.record(z.string(), z.number()),
    bias_type: z.array(z.string()),
    bias_confidence_score: z.number(),
    timestamp: IsoDateTime,
    trace_id: z.string(),
  })
  .strict();
export type AuditStreamEvent = z.infer<typeof AuditStreamEvent>;

export const SchedulerTick = z.object({ job: z.string().optional(), now: IsoDateTime.optional(), dry_run: z.boolean().optional() }).passthrough();
