// Retention: the per-tenant policy document `tenants/{t}/config/retention`, the job's cursor document
// `tenants/{t}/jobs/retention`, the daily roll-up rows written to the warehouse, and the run report.
import { z } from 'zod';
import { IsoDateTime } from './common';

/** FR-BIAS-4.7.1 defaults: anonymise after 180 days, roll up and purge after one year. */
export const DEFAULT_ANONYMIZE_AFTER_DAYS = 180;
export const DEFAULT_PURGE_AFTER_DAYS = 365;

export const RetentionPolicy = z
  .object({
    anonymize_after_days: z.number().int().min(1).max(36_500).default(DEFAULT_ANONYMIZE_AFTER_DAYS),
    purge_after_days: z.number().int().min(1).max(36_500).default(DEFAULT_PURGE_AFTER_DAYS),
    /** Lets a tenant on legal hold stop the job without losing its policy. */
    enabled: z.boolean().default(true),
  })
  .strict()
  .refine((p) => p.anonymize_after_days < p.purge_after_days, {
    message: 'anonymize_after_days must be smaller than purge_after_days',
    path: ['anonymize_after_days'],
  });
export type RetentionPolicy = z.infer<typeof RetentionPolicy>;

export const RetentionPhase = z.enum(['purge', 'anonymize', 'done']);
export type RetentionPhase = z.infer<typeof RetentionPhase>;

/** Where a tenant's run stands. Written after every batch, so a crashed run resumes from here. */
export const RetentionCursor = z.object({
  phase: RetentionPhase,
  run_id: z.string(),
  /** Anonymise phase: last record handled, in (created_at, id) order. */
  after: z.object({ created_at: z.string(), id: z.string() }).nullable(),
  /** Purge phase: the UTC day being purged and whether its roll-up is already in the warehouse. */
  purge_day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
  purge_day_rolled_up: z.boolean(),
  updated_at: IsoDateTime,
});
export type RetentionCursor = z.infer<typeof RetentionCursor>;

export const ReviewOutcome = z.enum(['CONFIRMED', 'DISMISSED', 'UNREVIEWED']);

/** One row of `audit_daily_rollups`: counts by tenant, day, model, bias type and review outcome. */
export const DailyRollupRow = z.object({
  /** Deterministic: SHA-256 of the dimensions, so re-writing a day replaces instead of adding. */
  row_key: z.string().regex(/^[0-9a-f]{64}$/),
  tenant_id: z.string(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  llm_model: z.string(),
  /** A detected bias type, `none` for records without bias, or `*` for the per-record total. */
  bias_type: z.string(),
  review_outcome: ReviewOutcome,
  record_count: z.number().int().min(0),
  bias_detected_count: z.number().int().min(0),
  analysis_failed_count: z.number().int().min(0),
  anonymized_count: z.number().int().min(0),
});
export type DailyRollupRow = z.infer<typeof DailyRollupRow>;

export const RetentionTenantReport = z.object({
  tenant_id: z.string(),
  skipped: z.string().nullable(),
  anonymized: z.number().int(),
  already_anonymized: z.number().int(),
  rolled_up_days: z.number().int(),
  rollup_rows: z.number().int(),
  purged: z.number().int(),
  events_purged: z.number().int(),
});
export type RetentionTenantReport = z.infer<typeof RetentionTenantReport>;

export const RetentionReport = z.object({
  run_id: z.string(),
  now: IsoDateTime,
  dry_run: z.boolean(),
  tenants: z.array(RetentionTenantReport),
  totals: z.object({ tenants: z.number().int(), anonymized: z.number().int(), purged: z.number().int(), rollup_rows: z.number().int(), rolled_up_days: z.number().int() }),
  duration_ms: z.number(),
});
export type RetentionReport = z.infer<typeof RetentionReport>;
