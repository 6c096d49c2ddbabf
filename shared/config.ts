// The only place that reads the environment. Functions call loadConfig() once at cold start; tests pass an env.
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
const int = (dflt: number, min = 0) => z.coerce.number().int().min(min).default(dflt);

const ConfigSchema = z
  .object({
    GCLOUD_PROJECT: z.string().min(1).default('demo-bias-monitor'),
    FIRESTORE_EMULATOR_HOST: z.string().optional(),
    PUBSUB_EMULATOR_HOST: z.string().optional(),
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARNING', 'ERROR']).default('INFO'),
    /** HS256 secret for local and test tokens; production uses AUTH_JWKS_URL (RS256). */
    AUTH_HS256_SECRET: z.string().min(32).optional(),
    AUTH_JWKS_URL: z.url().optional(),
    AUTH_ISSUER: z.string().min(1).default('bias-monitor-local'),
    AUTH_AUDIENCE: z.string().min(1).default('bias-monitor'),
    /** Keyed hashes (council query_hash, anonymised user ids). */
    HMAC_SECRET: z.string().min(16).optional(),
    HTTP_BODY_LIMIT_BYTES: int(1_048_576, 1024),
    PUBSUB_MAX_DELIVERY_ATTEMPTS: int(5, 5),
    /** Test-only: lets e2e and reliability suites make the analyzer fail on marked inputs. Refused in production. */
    FAULT_INJECTION: bool,
    WAREHOUSE: z.enum(['duckdb', 'bigquery']).default('duckdb'),
    DUCKDB_PATH: z.string().default('.cache/warehouse.duckdb'),
    BIGQUERY_DATASET: z.string().default('bias_monitor'),
    BIGQUERY_LOCATION: z.string().default('EU'),
    /** Council audits (ADR-015/018); definitions in docs/decisions/040. */
    COUNCIL_LENGTH_CORRELATION_THRESHOLD: z.coerce.number().min(0).max(1).default(0.3),
    COUNCIL_POSITION_VARIANCE_THRESHOLD: z.coerce.number().min(0).default(0.5),
    BIAS_WINDOW_SESSIONS: int(100, 1),
    BIAS_WINDOW_DAYS: int(30, 1),
    BIAS_BOOTSTRAP_RESAMPLES: int(1000, 1),
    BIAS_BOOTSTRAP_SEED: int(20251217),
    GRAPHQL_INTROSPECTION: bool,
    GRAPHQL_MAX_DEPTH: int(10, 1),
    GRAPHQL_MAX_COST: int(5000, 1),
    TASK_SUGGESTION_THRESHOLD: int(5, 1),
    TASK_SUGGESTION_WINDOW_DAYS: int(7, 1),
    /** Analysis sweeper: re-request PENDING audits requested longer ago than this. */
    ANALYSIS_SWEEP_PENDING_AFTER_SECONDS: int(120, 1),
    /** Analysis sweeper: re-request BIAS_ANALYSIS_FAILED audits (dead-lettered) last requested longer ago than this. */
    ANALYSIS_SWEEP_FAILED_AFTER_SECONDS: int(1800, 1),
    /** Analysis sweeper: leave audits FAILED after this many analysis attempts in all. */
    ANALYSIS_SWEEP_MAX_ATTEMPTS: int(15, 1),
    /** Analysis sweeper: at most this many re-requests per run. */
    ANALYSIS_SWEEP_LIMIT: int(2000, 1),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === 'production' && c.FAULT_INJECTION) {
      ctx.addIssue({ code: 'custom', path: ['FAULT_INJECTION'], message: 'fault injection is refused in production' });
    }
    if (c.NODE_ENV === 'production' && !c.AUTH_JWKS_URL && !c.AUTH_HS256_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_JWKS_URL'], message: 'production needs AUTH_JWKS_URL (or AUTH_HS256_SECRET)' });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${detail}`);
  }
  return parsed.data;
}
