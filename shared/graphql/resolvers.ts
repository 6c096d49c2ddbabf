// Resolvers: parse arguments, take the tenant from the verified token, call a use case or port, map the result.
import { z } from 'zod';
import { applyBiasUpdate } from '../app/bias-results';
import { recordReview } from '../app/record-review';
import { noteMitigation } from '../app/task-suggestions';
import type { BiasUpdate } from '../domain/audit/record';
import { forbidden, notFound, validationFailed, analysisFailed } from '../errors';
import type { AuditFilter, AuditSort, AuditSortField } from '../ports/audit-query';
import type { StoredAnalyzerConfig, TaxonomyView } from '../ports/catalog';
import type { TaskSuggestion } from '../ports/task-suggestions';
import { Finding } from '../schemas/analysis';
import { DomainRule, TenantAnalyzerConfig } from '../schemas/analyzer-config';
import type { AuditEvent, StoredAudit } from '../schemas/audit';
import { Id, JsonObject, toFieldIssues } from '../schemas/common';
import type { RequestContext } from './context';
import { DateTimeScalar, JSONScalar } from './scalars';

export const MAX_PAGE_SIZE = 100;
export const MAX_OFFSET = 10_000;
const DECISION_MAX_INTERACTIONS = 200;

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationFailed(toFieldIssues(r.error));
  return r.data;
}

// --- arguments ---------------------------------------------------------------------------------------------

interface FilterArg {
  tenantId?: string | null;
  userId?: string | null;
  llmProvider?: string | null;
  llmModel?: string | null;
  sensitivityScore?: string | null;
  biasDetected?: boolean | null;
  humanReviewed?: boolean | null;
  logTimestampStart?: string | null;
  logTimestampEnd?: string | null;
  biasType?: string | null;
  biasStatus?: string | null;
  decisionId?: string | null;
  reviewVerdict?: string | null;
  minConfidence?: number | null;
}

const u = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

export function toFilter(arg: FilterArg | null | undefined, tenantId: string): AuditFilter {
  const f = arg ?? {};
  // The filter can narrow, never widen: a tenantId other than the token's is refused outright.
  if (f.tenantId !== undefined && f.tenantId !== null && f.tenantId !== tenantId) {
    throw forbidden('filter.tenantId does not match the tenant of the token');
  }
  if (f.minConfidence !== undefined && f.minConfidence !== null && !(f.minConfidence >= 0 && f.minConfidence <= 1)) {
    throw validationFailed([{ path: 'filter.minConfidence', message: 'must be between 0 and 1' }]);
  }
  if (f.logTimestampStart && f.logTimestampEnd && f.logTimestampStart > f.logTimestampEnd) {
    throw validationFailed([{ path: 'filter.logTimestampEnd', message: 'must not be before logTimestampStart' }]);
  }
  return {
    userId: u(f.userId),
    llmProvider: u(f.llmProvider),
    llmModel: u(f.llmModel),
    sensitivityScore: u(f.sensitivityScore),
    biasDetected: u(f.biasDetected),
    humanReviewed: u(f.humanReviewed),
    logTimestampStart: u(f.logTimestampStart),
    logTimestampEnd: u(f.logTimestampEnd),
    biasType: u(f.biasType),
    biasStatus: u(f.biasStatus),
    decisionId: u(f.decisionId),
    reviewVerdict: u(f.reviewVerdict),
    minConfidence: u(f.minConfidence),
  };
}

const SORT_FIELD: Record<string, AuditSortField> = { LOG_TIMESTAMP: 'log_timestamp', CONFIDENCE: 'bias_confidence_score', SEVERITY: 'bias_severity' };

export function toSort(arg: { field?: string | null; direction?: string | null } | null | undefined): AuditSort {
  return { field: SORT_FIELD[arg?.field ?? 'LOG_TIMESTAMP'] ?? 'log_timestamp', direction: arg?.direction === 'ASC' ? 'asc' : 'desc' };
}

function pageSize(value: number | null | undefined, path: string, dflt = 25): number {
  const n = value ?? dflt;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) throw validationFailed([{ path, message: `must be between 1 and ${MAX_PAGE_SIZE}` }]);
  return n;
}

// --- mapping -----------------------------------------------------------------------------------------------

const eventView = (e: AuditEvent) => ({
  seq: e.seq,
  type: e.type,
  at: e.at,
  actor: e.actor,
  key: e.key,
  payload: e.payload,
  stateDigest: e.state_digest,
  prevHash: e.prev_hash,
  hash: e.hash,
});

export function severityOf(biasType: readonly string[], taxonomy: readonly TaxonomyView[]): number | null {
  const byKey = new Map(taxonomy.map((t) => [t.bias_key, t.severity_level]));
  let max: number | null = null;
  for (const t of biasType) {
    const s = byKey.get(t);
    if (s !== undefined && (max === null || s > max)) max = s;
  }
  return max;
}

const taxonomyView = (t: TaxonomyView) => ({
  biasKey: t.bias_key,
  description: t.description,
  severityLevel: t.severity_level,
  kind: t.kind,
  scope: t.scope,
  updatedAt: t.updated_at,
  updatedBy: t.updated_by,
});

const configView = (s: StoredAnalyzerConfig) => ({
  detectionThreshold: s.config.detection_threshold,
  detectorThresholds: s.config.detector_thresholds,
  enabledDetectors: s.config.enabled_detectors,
  allowList: s.config.allow_list,
  domainRules: s.config.domain_rules?.map((r) => ({
    id: r.id,
    biasType: r.bias_type,
    description: r.description,
    all: r.all,
    unless: r.unless,
    window: r.window,
    score: r.score,
    mitigation: r.mitigation ?? null,
    enabled: r.enabled,
  })) ?? null,
  extendDefaultRules: s.config.extend_default_rules,
  reviewConfidenceFloor: s.config.review_confidence_floor,
  reviewUnsupportedLanguage: s.config.review_unsupported_language,
  council: s.config.council,
  version: s.version,
  updatedAt: s.updated_at,
  updatedBy: s.updated_by,
  raw: s.config,
});

const suggestionView = (s: TaskSuggestion) => ({
  id: s.id,
  biasType: s.bias_type,
  domain: s.domain,
  windowStart: s.window_start,
  windowEnd: s.window_end,
  count: s.count,
  threshold: s.threshold,
  status: s.status,
  createdAt: s.created_at,
  triggerAuditId: s.trigger_audit_id,
  publishedAt: s.published_at,
});

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const int = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function biasReportView(raw: Record<string, unknown>) {
  const w = obj(raw.window);
  const lc = raw.length_correlation === undefined || raw.length_correlation === null ? null : obj(raw.length_correlation);
  const pb = raw.position_bias === undefined || raw.position_bias === null ? null : obj(raw.position_bias);
  return {
    window: raw.window ? { start: str(w.start), end: str(w.end), sessions: int(w.sessions), records: int(w.records) } : null,
    confidenceTier: str(raw.confidence_tier),
    lengthCorrelation: lc && {
      r: num(lc.r),
      pValue: num(lc.p_value),
      ciLower: num(lc.ci_lower),
      ciUpper: num(lc.ci_upper),
      n: int(lc.n),
      bootstrapCiLower: num(lc.bootstrap_ci_lower),
      bootstrapCiUpper: num(lc.bootstrap_ci_upper),
    },
    positionBias: pb && {
      byPosition: arr(pb.by_position).map((p) => ({ position: int(obj(p).position), mean: num(obj(p).mean), n: int(obj(p).n) })),
      variance: num(pb.variance),
      detected: typeof pb.detected === 'boolean' ? pb.detected : null,
    },
    reviewers: arr(raw.reviewers).map((r) => ({
      reviewerId: String(obj(r).reviewer_id ?? ''),
      mean: num(obj(r).mean),
      std: num(obj(r).std),
      count: int(obj(r).count),
      harshnessZ: num(obj(r).harshness_z),
    })),
    anomalies: raw.anomalies ?? null,
    trends: raw.trends ?? null,
    generatedAt: str(raw.generated_at),
    raw,
  };
}

async function getAudit(ctx: RequestContext, id: string): Promise<StoredAudit> {
  const parsed = Id.safeParse(id);
  // Every lookup is under the token's tenant: another tenant's id is indistinguishable from a missing one.
  const audit = parsed.success ? await ctx.deps.store.get(ctx.principal.tenantId, parsed.data) : null;
  if (!audit) throw notFound(`audit ${id.slice(0, 128)}`);
  return audit;
}

const BIAS_EVENT_TYPES = new Set(['bias_analyzed', 'bias_updated', 'analysis_failed', 'reviewed']);

// --- inputs ------------------------------------------------------------------------------------------------

const UpdateBiasInput = z.object({
  biasDetected: z.boolean().nullish(),
  biasType: z.array(z.string().min(1).max(64)).max(32).nullish(),
  biasScore: z.record(z.string(), z.number()).nullish(),
  biasConfidenceScore: z.number().min(0).max(1).nullish(),
  mitigationAction: JsonObject.nullish(),
  biasReportSummary: JsonObject.nullish(),
  traceId: z.string().max(64).nullish(),
  idempotencyKey: Id.nullish(),
});

const ReviewArgs = z.object({
  humanReviewed: z.boolean(),
  humanBiasTag: z.unknown().optional(),
  reviewNotes: z.string().max(5_000).nullish(),
  verdict: z.enum(['CONFIRMED', 'DISMISSED']).nullish(),
  idempotencyKey: Id.nullish(),
});

const TaxonomyInput = z.object({
  biasKey: z.string().regex(/^[a-z0-9_]{1,64}$/, 'must be 1-64 lowercase letters, digits or _'),
  description: z.string().min(1).max(500),
  severityLevel: z.number().int().min(1).max(5),
  kind: z.string().min(1).max(32).nullish(),
});

const ConfigPatch = z.object({
  detectionThreshold: z.number().nullish(),
  detectorThresholds: z.unknown().optional(),
  enabledDetectors: z.array(z.string()).nullish(),
  allowList: z.array(z.string()).nullish(),
  extendDefaultRules: z.boolean().nullish(),
  reviewConfidenceFloor: z.number().nullish(),
  reviewUnsupportedLanguage: z.boolean().nullish(),
  council: z.unknown().optional(),
});

const defined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));

// --- resolvers ---------------------------------------------------------------------------------------------

type Ctx = RequestContext;

export const resolvers = {
  JSON: JSONScalar,
  DateTime: DateTimeScalar,

  Query: {
    me: (_: unknown, __: unknown, ctx: Ctx) => ctx.principal,

    llmInteractionAudit: async (_: unknown, args: { id: string }, ctx: Ctx) => {
      ctx.require('viewer', 'reading audits');
      return getAudit(ctx, args.id);
    },

    llmInteractionAudits: async (
      _: unknown,
      args: { filter?: FilterArg | null; pagination?: { limit?: number | null; offset?: number | null } | null; sort?: { field?: string; direction?: string } | null },
      ctx: Ctx,
    ) => {
      ctx.require('viewer', 'reading audits');
      const filter = toFilter(args.filter, ctx.principal.tenantId);
      const limit = pageSize(args.pagination?.limit, 'pagination.limit');
      const offset = args.pagination?.offset ?? 0;
      if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) {
        throw validationFailed([{ path: 'pagination.offset', message: `must be between 0 and ${MAX_OFFSET}; use llmInteractionAuditConnection for deep paging` }]);
      }
      return ctx.deps.queries.list(ctx.principal.tenantId, filter, toSort(args.sort), { limit, offset });
    },

    llmInteractionAuditConnection: async (
      _: unknown,
      args: { filter?: FilterArg | null; first?: number | null; after?: string | null; sort?: { field?: string; direction?: string } | null },
      ctx: Ctx,
    ) => {
      ctx.require('viewer', 'reading audits');
      const filter = toFilter(args.filter, ctx.principal.tenantId);
      const first = pageSize(args.first, 'first');
      const page = await ctx.deps.queries.page(ctx.principal.tenantId, filter, toSort(args.sort), { first, after: args.after });
      return {
        edges: page.items.map((i) => ({ cursor: i.cursor, node: i.audit })),
        pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
      };
    },

    explain: async (_: unknown, args: { auditId: string }, ctx: Ctx) => {
      ctx.require('viewer', 'reading audits');
      return getAudit(ctx, args.auditId);
    },

    decision: async (_: unknown, args: { id: string }, ctx: Ctx) => {
      ctx.require('viewer', 'reading decisions');
      const id = Id.safeParse(args.id);
      const interactions = id.success ? await ctx.deps.queries.byDecision(ctx.principal.tenantId, id.data, DECISION_MAX_INTERACTIONS) : [];
      if (interactions.length === 0) throw notFound(`decision ${args.id.slice(0, 128)}`);
      return { id: args.id, interactions };
    },

    biasTaxonomy: async (_: unknown, __: unknown, ctx: Ctx) => {
      ctx.require('viewer', 'reading the taxonomy');
      return (await ctx.taxonomy()).map(taxonomyView);
    },

    tenantAnalyzerConfig: async (_: unknown, __: unknown, ctx: Ctx) => {
      ctx.require('viewer', 'reading analyzer settings');
      return configView(await ctx.deps.analyzerConfig.get(ctx.principal.tenantId));
    },

    taskSuggestions: async (_: unknown, args: { limit?: number | null }, ctx: Ctx) => {
      ctx.require('viewer', 'reading task suggestions');
      const limit = pageSize(args.limit, 'limit', 50);
      return (await ctx.deps.tasks.list(ctx.principal.tenantId, limit)).map(suggestionView);
    },

    biasReport: async (_: unknown, __: unknown, ctx: Ctx) => {
      ctx.require('viewer', 'reading bias reports');
      const raw = await ctx.deps.reports.latest(ctx.principal.tenantId);
      return raw ? biasReportView(raw) : null;
    },
  },

  Mutation: {
    updateLlmInteractionAuditBias: async (_: unknown, args: { id: string; input: unknown }, ctx: Ctx) => {
      const principal = ctx.require('service', 'updateLlmInteractionAuditBias');
      const input = parse(UpdateBiasInput, args.input);
      const audit = await getAudit(ctx, args.id);
      if (input.traceId && input.traceId !== audit.trace_id) {
        throw validationFailed([{ path: 'input.traceId', message: 'does not match the trace id of the audit' }]);
      }
      const update: BiasUpdate = defined({
        bias_detected: input.biasDetected,
        bias_type: input.biasType,
        bias_score: input.biasScore,
        bias_confidence_score: input.biasConfidenceScore === null || input.biasConfidenceScore === undefined ? undefined : Math.round(input.biasConfidenceScore * 10_000) / 10_000,
        mitigation_action: input.mitigationAction,
        bias_report_summary: input.biasReportSummary,
      });
      const saved = await applyBiasUpdate(ctx.deps, {
        tenantId: principal.tenantId,
        auditId: audit.id,
        update,
        actor: principal.subject,
        key: input.idempotencyKey ? `bias_update:${input.idempotencyKey}` : null,
      });
      await noteMitigation(taskDeps(ctx), saved);
      return saved;
    },

    recordBiasReview: async (_: unknown, args: { id: string; input: unknown }, ctx: Ctx) => {
      const principal = ctx.require('reviewer', 'recordBiasReview');
      const input = parse(ReviewArgs, args.input);
      const audit = await getAudit(ctx, args.id);
      return recordReview(
        { ...taskDeps(ctx), store: ctx.deps.store, taxonomy: ctx.deps.taxonomy },
        {
          tenantId: principal.tenantId,
          auditId: audit.id,
          reviewerId: principal.subject,
          idempotencyKey: input.idempotencyKey,
          review: { humanReviewed: input.humanReviewed, verdict: input.verdict ?? null, humanBiasTag: input.humanBiasTag ?? null, reviewNotes: input.reviewNotes ?? null },
        },
      );
    },

    upsertBiasTaxonomyEntry: async (_: unknown, args: { input: unknown }, ctx: Ctx) => {
      const principal = ctx.require('admin', 'changing the taxonomy');
      const input = parse(TaxonomyInput, args.input);
      const saved = await ctx.deps.taxonomy.putTenantEntry(
        principal.tenantId,
        { bias_key: input.biasKey, description: input.description, severity_level: input.severityLevel, kind: input.kind ?? 'custom' },
        { actor: principal.subject, at: ctx.deps.clock.now().toISOString() },
      );
      return taxonomyView(saved);
    },

    updateTenantAnalyzerConfig: async (_: unknown, args: { input: unknown }, ctx: Ctx) => {
      const principal = ctx.require('admin', 'changing analyzer settings');
      const p = parse(ConfigPatch, args.input);
      const patch = defined({
        detection_threshold: p.detectionThreshold,
        detector_thresholds: p.detectorThresholds,
        enabled_detectors: p.enabledDetectors,
        allow_list: p.allowList,
        extend_default_rules: p.extendDefaultRules,
        review_confidence_floor: p.reviewConfidenceFloor,
        review_unsupported_language: p.reviewUnsupportedLanguage,
        council: p.council,
      });
      const stored = await ctx.deps.analyzerConfig.update(
        principal.tenantId,
        (current) => parse(TenantAnalyzerConfig, { ...current, ...patch }),
        { actor: principal.subject, at: ctx.deps.clock.now().toISOString() },
      );
      return configView(stored);
    },

    upsertDomainRule: async (_: unknown, args: { input: Record<string, unknown> }, ctx: Ctx) => {
      const principal = ctx.require('admin', 'changing domain rules');
      const i = args.input;
      const rule = parse(DomainRule, defined({
        id: i.id, bias_type: i.biasType, description: i.description, all: i.all, unless: i.unless, window: i.window, score: i.score, mitigation: i.mitigation, enabled: i.enabled,
      }));
      const keys = new Set((await ctx.taxonomy()).map((t) => t.bias_key));
      const unknown = rule.bias_type.filter((t) => !keys.has(t));
      if (unknown.length) throw validationFailed([{ path: 'input.biasType', message: `not in the taxonomy: ${unknown.join(', ')}` }]);
      const stored = await ctx.deps.analyzerConfig.update(
        principal.tenantId,
        (current) => parse(TenantAnalyzerConfig, { ...current, domain_rules: [...(current.domain_rules ?? []).filter((r) => r.id !== rule.id), rule] }),
        { actor: principal.subject, at: ctx.deps.clock.now().toISOString() },
      );
      return configView(stored);
    },

    deleteDomainRule: async (_: unknown, args: { id: string }, ctx: Ctx) => {
      const principal = ctx.require('admin', 'changing domain rules');
      const stored = await ctx.deps.analyzerConfig.update(
        principal.tenantId,
        (current) => {
          const rules = current.domain_rules ?? [];
          if (!rules.some((r) => r.id === args.id)) throw notFound(`domain rule ${args.id.slice(0, 64)}`);
          return { ...current, domain_rules: rules.filter((r) => r.id !== args.id) };
        },
        { actor: principal.subject, at: ctx.deps.clock.now().toISOString() },
      );
      return configView(stored);
    },
  },

  LlmInteractionAudit: {
    tenantId: (a: StoredAudit) => a.tenant_id,
    userId: (a: StoredAudit) => a.user_id,
    userEmail: (a: StoredAudit) => a.user_email,
    userRole: (a: StoredAudit) => a.user_role,
    queryContext: (a: StoredAudit) => (a.query_context === null ? null : typeof a.query_context === 'string' ? a.query_context : JSON.stringify(a.query_context)),
    queryContextJson: (a: StoredAudit) => a.query_context,
    originalQuery: (a: StoredAudit) => a.original_query,
    llmProvider: (a: StoredAudit) => a.llm_provider,
    llmModel: (a: StoredAudit) => a.llm_model,
    llmModelVersion: (a: StoredAudit) => a.llm_model_version,
    sanitizedPrompt: (a: StoredAudit) => a.sanitized_prompt,
    llmResponse: (a: StoredAudit) => a.llm_response,
    promptTokens: (a: StoredAudit) => a.prompt_tokens,
    responseTokens: (a: StoredAudit) => a.response_tokens,
    estimatedCostUsd: (a: StoredAudit) => a.estimated_cost_usd,
    redactionSummary: (a: StoredAudit) => a.redaction_summary,
    sensitivityScore: (a: StoredAudit) => a.sensitivity_score,
    containedPii: (a: StoredAudit) => a.contained_pii,
    containedProprietary: (a: StoredAudit) => a.contained_proprietary,
    containedCustomerData: (a: StoredAudit) => a.contained_customer_data,
    errorMessage: (a: StoredAudit) => a.error_message,
    logTimestamp: (a: StoredAudit) => a.log_timestamp,
    biasDetected: (a: StoredAudit) => a.bias_detected,
    biasType: (a: StoredAudit) => a.bias_type,
    biasScore: (a: StoredAudit) => a.bias_score,
    biasConfidenceScore: (a: StoredAudit) => a.bias_confidence_score,
    biasSeverity: async (a: StoredAudit, _: unknown, ctx: Ctx) => severityOf(a.bias_type, await ctx.taxonomy()),
    mitigationAction: (a: StoredAudit) => a.mitigation_action,
    biasReportSummary: (a: StoredAudit) => a.bias_report_summary,
    biasStatus: (a: StoredAudit) => a.bias_status,
    analyzedAt: (a: StoredAudit) => a.analyzed_at,
    analysisError: (a: StoredAudit) => a.analysis_error,
    humanReviewed: (a: StoredAudit) => a.human_reviewed,
    humanBiasTag: (a: StoredAudit) => a.human_bias_tag,
    reviewNotes: (a: StoredAudit) => a.review_notes,
    reviewVerdict: (a: StoredAudit) => a.review_verdict,
    reviewedBy: (a: StoredAudit) => a.reviewed_by,
    reviewedAt: (a: StoredAudit) => a.reviewed_at,
    traceId: (a: StoredAudit) => a.trace_id,
    decisionId: (a: StoredAudit) => a.decision_id,
    promptHash: (a: StoredAudit) => a.prompt_hash,
    outputHash: (a: StoredAudit) => a.output_hash,
    createdAt: (a: StoredAudit) => a.created_at,
    events: async (a: StoredAudit, _: unknown, ctx: Ctx) => (await ctx.history(a)).events.map(eventView),
    chainValid: async (a: StoredAudit, _: unknown, ctx: Ctx) => (await ctx.history(a)).verification.valid,
    chainProblems: async (a: StoredAudit, _: unknown, ctx: Ctx) => (await ctx.history(a)).verification.problems,
  },

  ExplainBundle: {
    auditId: (a: StoredAudit) => a.id,
    traceId: (a: StoredAudit) => a.trace_id,
    promptTemplate: (a: StoredAudit) => a.prompt_template,
    promptVariables: (a: StoredAudit) => a.prompt_variables,
    promptHash: (a: StoredAudit) => a.prompt_hash,
    outputHash: (a: StoredAudit) => a.output_hash,
    llmProvider: (a: StoredAudit) => a.llm_provider,
    llmModel: (a: StoredAudit) => a.llm_model,
    llmModelVersion: (a: StoredAudit) => a.llm_model_version,
    machineVerdict: (a: StoredAudit) => ({
      biasDetected: a.bias_detected,
      biasType: a.bias_type,
      biasScore: a.bias_score,
      confidence: a.bias_confidence_score,
      biasStatus: a.bias_status,
      analyzedAt: a.analyzed_at,
    }),
    findings: (a: StoredAudit) => {
      if (a.bias_status === 'BIAS_ANALYSIS_FAILED') throw analysisFailed(`bias analysis of ${a.id} failed (${a.analysis_error ?? 'unknown error'}); it will be retried`);
      return findingsOf(a).map((f) => ({
        detector: f.detector,
        detectorVersion: f.detector_version,
        biasType: f.bias_type,
        score: f.score,
        explanation: f.explanation,
        suggestion: f.suggestion ?? null,
        metric: f.metric ?? null,
        spans: f.spans,
      }));
    },
    detectorVersions: (a: StoredAudit) => detectorVersionsOf(a),
    mitigation: (a: StoredAudit) => a.mitigation_action,
    review: (a: StoredAudit) => ({
      humanReviewed: a.human_reviewed,
      verdict: a.review_verdict,
      humanBiasTag: a.human_bias_tag,
      reviewNotes: a.review_notes,
      reviewedBy: a.reviewed_by,
      reviewedAt: a.reviewed_at,
    }),
    reviewTrail: async (a: StoredAudit, _: unknown, ctx: Ctx) => (await ctx.history(a)).events.filter((e) => e.type === 'reviewed').map(eventView),
    events: async (a: StoredAudit, _: unknown, ctx: Ctx) => (await ctx.history(a)).events.map(eventView),
    chainValid: async (a: StoredAudit, _: unknown, ctx: Ctx) => (await ctx.history(a)).verification.valid,
    chainProblems: async (a: StoredAudit, _: unknown, ctx: Ctx) => (await ctx.history(a)).verification.problems,
  },

  Decision: {
    biasEvents: async (d: { interactions: StoredAudit[] }, _: unknown, ctx: Ctx) => {
      const all = await Promise.all(
        d.interactions.map(async (a) =>
          (await ctx.history(a)).events
            .filter((e) => BIAS_EVENT_TYPES.has(e.type))
            .map((e) => ({
              auditId: a.id,
              seq: e.seq,
              type: e.type,
              at: e.at,
              actor: e.actor,
              biasDetected: typeof e.payload.bias_detected === 'boolean' ? e.payload.bias_detected : null,
              biasType: Array.isArray(e.payload.bias_type) ? e.payload.bias_type : null,
              verdict: typeof e.payload.verdict === 'string' ? e.payload.verdict : null,
            })),
        ),
      );
      return all.flat().sort((x, y) => x.at.localeCompare(y.at) || x.auditId.localeCompare(y.auditId) || x.seq - y.seq);
    },
    biasedInteractionCount: (d: { interactions: StoredAudit[] }) => d.interactions.filter((a) => a.bias_detected).length,
    firstBiasedAuditId: (d: { interactions: StoredAudit[] }) => d.interactions.find((a) => a.bias_detected)?.id ?? null,
  },
};

export function findingsOf(a: StoredAudit): Finding[] {
  return arr(a.bias_report_summary?.findings)
    .map((f) => Finding.safeParse(f))
    .filter((r) => r.success)
    .map((r) => r.data);
}

export function detectorVersionsOf(a: StoredAudit): { detector: string; version: string }[] {
  const declared = obj(a.bias_report_summary?.detector_versions);
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(declared)) if (typeof v === 'string') out.set(k, v);
  for (const f of findingsOf(a)) if (!out.has(f.detector)) out.set(f.detector, f.detector_version);
  return [...out.entries()].sort(([x], [y]) => x.localeCompare(y)).map(([detector, version]) => ({ detector, version }));
}

function taskDeps(ctx: Ctx) {
  return {
    tasks: ctx.deps.tasks,
    bus: ctx.deps.bus,
    clock: ctx.deps.clock,
    log: ctx.deps.log,
    taskSuggestionThreshold: ctx.deps.config.TASK_SUGGESTION_THRESHOLD,
    taskSuggestionWindowDays: ctx.deps.config.TASK_SUGGESTION_WINDOW_DAYS,
  };
}

