// LLM-council audit contracts: the session input (ADR-015), the BiasMetricRecord (ADR-018 schema 1.1.0, plus
// tenant_id and a few derived columns) and the per-session audit result and pooled report JSON.
import { z } from 'zod';
import { Id, IsoDateTime } from './common';

const ModelId = z.string().min(1).max(200);
const Label = z.string().min(1).max(200);

/** "1-10", "0-1", "1-5", "0-100": the inclusive range the session's scores are on. */
export const ScoreScale = z
  .string()
  .regex(/^-?\d+(\.\d+)?\s*-\s*-?\d+(\.\d+)?$/, 'must look like "1-10" (low-high)')
  .refine((s) => {
    const [lo, hi] = parseScoreScale(s);
    return hi > lo;
  }, 'high end must be greater than low end');

export function parseScoreScale(scale: string): [number, number] {
  const m = /^(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)$/.exec(scale.trim());
  if (!m) return [Number.NaN, Number.NaN];
  return [Number(m[1]), Number(m[2])];
}

export const LabelEntry = z.union([ModelId, z.object({ model: ModelId, display_index: z.number().int().min(0).max(1000) })]);

export const QueryMetadata = z
  .object({
    category: z.string().max(64).optional(),
    token_count_bucket: z.string().max(32).optional(),
    language: z.string().max(16).optional(),
  })
  .strict();
export type QueryMetadata = z.infer<typeof QueryMetadata>;

export const ConsentLevel = z.number().int().min(0).max(4);

export const CouncilSessionInput = z
  .object({
    session_id: Id,
    /** Accepted on the Pub/Sub path only (internal IAM-restricted topic); over HTTP the tenant comes from the token. */
    tenant_id: Id.optional(),
    timestamp: IsoDateTime.optional(),
    stage1: z.array(z.object({ model: ModelId, response: z.string().max(400_000) }).strict()).min(1).max(50),
    stage2: z.record(ModelId, z.record(z.string().min(1).max(200), z.number().finite())),
    label_to_model: z.record(Label, LabelEntry).default({}),
    score_scale: ScoreScale.default('1-10'),
    consent_level: ConsentLevel.default(1),
    /** Used only to compute query_hash at consent 4; never stored or logged. */
    query: z.string().max(200_000).optional(),
    query_metadata: QueryMetadata.optional(),
    council_config_version: z.string().min(1).max(64),
  })
  .strict();
export type CouncilSessionInput = z.infer<typeof CouncilSessionInput>;

export const SCHEMA_VERSION = '1.1.0';

export const BiasMetricRecord = z.object({
  schema_version: z.literal(SCHEMA_VERSION),
  record_id: z.string().min(1).max(128),
  tenant_id: Id,
  session_id: Id,
  timestamp: IsoDateTime,
  consent_level: ConsentLevel,
  query_metadata: QueryMetadata.nullable(),
  reviewer_id: ModelId,
  model_id: ModelId,
  /** 0-based presentation order (display_index), null when the session carried no position data. */
  position: z.number().int().min(0).nullable(),
  response_length_chars: z.number().int().min(0),
  /** Second length field for readers; all statistics use characters. */
  response_length_words: z.number().int().min(0),
  score_value: z.number().finite(),
  score_scale: ScoreScale,
  /** score_value mapped from score_scale onto 0-1; pooled statistics use this. */
  score_normalized: z.number().finite(),
  council_config_version: z.string().min(1).max(64),
  /** HMAC-SHA256 of the query (hex), only at consent level 4. */
  query_hash: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
});
export type BiasMetricRecord = z.infer<typeof BiasMetricRecord>;

export const RiskLevel = z.enum(['low', 'medium', 'high']);

export const BiasAuditResult = z.object({
  session_id: z.string(),
  length_unit: z.literal('characters'),
  /** Pearson r between response length (characters) and the mean peer score, over candidates. */
  length_score_correlation: z.number().nullable(),
  /** Two-sided p from Student's t with n − 2 df. */
  length_score_p_value: z.number().nullable(),
  length_n: z.number().int(),
  length_bias_detected: z.boolean(),
  /** Population variance of the per-position mean scores (raw score scale); null without position data. */
  position_score_variance: z.number().nullable(),
  position_bias_detected: z.boolean().nullable(),
  position_means: z.array(z.object({ position: z.number().int(), mean: z.number(), n: z.number().int() })),
  reviewer_mean_scores: z.record(z.string(), z.number()),
  /** Sample standard deviation (n − 1) of each reviewer's scores; null with a single score. */
  reviewer_score_sd: z.record(z.string(), z.number().nullable()),
  reviewer_counts: z.record(z.string(), z.number().int()),
  harsh_reviewers: z.array(z.string()),
  generous_reviewers: z.array(z.string()),
  self_votes_excluded: z.number().int(),
  /** Mean (self score − mean peer score for the same model); null without self-votes that have peers. */
  self_vote_inflation: z.number().nullable(),
  overall_bias_risk: RiskLevel,
});
export type BiasAuditResult = z.infer<typeof BiasAuditResult>;

export const ConfidenceTier = z.enum(['insufficient', 'preliminary', 'moderate', 'high']);
export type ConfidenceTier = z.infer<typeof ConfidenceTier>;

const Num = z.number().nullable();

export const BiasReportJson = z.object({
  generated_at: IsoDateTime,
  tenant_id: z.string().nullable(),
  window: z.object({
    start: IsoDateTime.nullable(),
    end: IsoDateTime.nullable(),
    sessions: z.number().int(),
    records: z.number().int(),
    max_sessions: z.number().int().nullable(),
    days: z.number().nullable(),
    model_id: z.string().nullable(),
    council_config_version: z.string().nullable(),
  }),
  confidence_tier: ConfidenceTier,
  score_unit: z.literal('normalized_0_1'),
  length_unit: z.literal('characters'),
  length_correlation: z.object({
    r: Num,
    p_value: Num,
    ci_lower: Num,
    ci_upper: Num,
    n: z.number().int(),
    bootstrap_ci_lower: Num,
    bootstrap_ci_upper: Num,
    bootstrap_resamples: z.number().int(),
    bootstrap_seed: z.number().int(),
    detected: z.boolean(),
  }),
  position_bias: z.object({
    by_position: z.array(
      z.object({ position: z.number().int(), mean: z.number(), n: z.number().int(), sd: Num, ci_lower: Num, ci_upper: Num }),
    ),
    variance: Num,
    f_statistic: Num,
    p_value: Num,
    max_difference: Num,
    detected: z.boolean(),
  }),
  reviewers: z.array(
    z.object({
      reviewer_id: z.string(),
      mean: z.number(),
      std: Num,
      count: z.number().int(),
      harshness_z: Num,
      classification: z.enum(['harsh', 'generous', 'typical', 'unrated']),
    }),
  ),
  self_votes: z.object({ count: z.number().int(), inflation: Num, ci_lower: Num, ci_upper: Num }),
  anomalies: z.array(z.object({ session_id: z.string(), timestamp: z.string(), mean: z.number(), z: z.number(), records: z.number().int() })),
  trends: z.array(
    z.object({ start: z.string(), end: z.string(), sessions: z.number().int(), records: z.number().int(), r: Num, mean_score: Num }),
  ),
});
export type BiasReportJson = z.infer<typeof BiasReportJson>;

/** Scheduler tick on aggregate-ticks; tenant_id narrows the run to one tenant. */
export const AggregateTick = z.object({ job: z.string().optional(), now: IsoDateTime.optional(), tenant_id: Id.optional() }).passthrough();
export type AggregateTick = z.infer<typeof AggregateTick>;

/** One line of a bias_metrics.jsonl file: ADR-018 1.0 (integer schema_version) or 1.1.0 records; tenant optional. */
export const JsonlMetricRecord = z
  .object({
    schema_version: z.union([z.number(), z.string()]).optional(),
    tenant_id: z.string().nullable().optional(),
    session_id: z.string().min(1),
    timestamp: z.iso.datetime({ offset: true, local: true }),
    reviewer_id: z.string().min(1),
    model_id: z.string().min(1),
    position: z.number().int().min(0).nullable().optional(),
    response_length_chars: z.number().int().min(0),
    score_value: z.number().finite(),
    score_scale: ScoreScale,
    council_config_version: z.string().nullable().optional(),
  })
  .refine(
    (r) => {
      const [lo, hi] = parseScoreScale(r.score_scale);
      return r.score_value >= lo && r.score_value <= hi;
    },
    { message: 'score_value is outside score_scale', path: ['score_value'] },
  );
export type JsonlMetricRecord = z.infer<typeof JsonlMetricRecord>;
