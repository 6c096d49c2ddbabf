// analyze-bias: HTTP POST /analyze-bias (FR-BIAS-4.3.2), the bias-analysis-requests worker and the analysis sweeper.
import { http } from '@google-cloud/functions-framework';
import { FirestoreStaleAudits } from '../../shared/adapters/firestore/stale-audits';
import { firestoreFor } from '../../shared/adapters/firestore/client';
import { FirestoreTaskSuggestionStore } from '../../shared/adapters/firestore/task-suggestions';
import { noteMitigation } from '../../shared/app/task-suggestions';
import { analyzeAudit } from '../../shared/app/bias-results';
import { createAppContext } from '../../shared/app/context';
import { sweepAnalysis } from '../../shared/app/sweep-analysis';
import { hasRole } from '../../shared/auth/tokens';
import { forbidden } from '../../shared/errors';
import { AnalyzeBiasRequest } from '../../shared/schemas/analysis';
import { AnalysisRequestMessage, SchedulerTick } from '../../shared/schemas/messages';
import { httpRoutes, parseBody } from '../../shared/transport/http';
import { pubsubConsumer, pubsubPushEndpoint } from '../../shared/transport/pubsub';
import { TOPICS } from '../../shared/topology';

const ctx = createAppContext('analyze-bias');
// Warm the detectors at cold start instead of on the first request.
void ctx.analyzer();

export const analyzeBiasHttpHandler = httpRoutes(
  [
    {
      method: 'POST',
      path: '/analyze-bias',
      handle: async (req, res) => {
        const principal = await ctx.verifier.verify(req.headers.authorization);
        const request = parseBody(AnalyzeBiasRequest, req);
        if (request.tenant_id && request.tenant_id !== principal.tenantId) {
          throw forbidden('tenant_id in the body does not match the tenant of the token');
        }
        if (!hasRole(principal, 'viewer')) throw forbidden('analysis needs a known role');
        const analyzer = await ctx.analyzer();
        res.status(200).json(await analyzer.analyze(request, principal.tenantId));
      },
    },
  ],
  ctx.log,
  ctx.config.HTTP_BODY_LIMIT_BYTES,
);

const taskDeps = {
  tasks: new FirestoreTaskSuggestionStore(firestoreFor(ctx.config)),
  bus: ctx.bus,
  clock: ctx.clock,
  log: ctx.log,
  taskSuggestionThreshold: ctx.config.TASK_SUGGESTION_THRESHOLD,
  taskSuggestionWindowDays: ctx.config.TASK_SUGGESTION_WINDOW_DAYS,
};

export const analyzeBiasWorkerHandler = pubsubConsumer({
  topic: TOPICS.analysisRequests,
  schema: AnalysisRequestMessage,
  bus: ctx.bus,
  log: ctx.log,
  handle: async (msg) => {
    const saved = await analyzeAudit({ ...ctx, analyzer: await ctx.analyzer() }, msg);
    // FR-BIAS-4.6.4: frequent mitigations of one type in one domain become a task suggestion.
    await noteMitigation(taskDeps, saved);
  },
});

const staleAudits = new FirestoreStaleAudits(firestoreFor(ctx.config));

export const analysisSweeperHandler = pubsubConsumer({
  topic: TOPICS.analysisSweepTicks,
  schema: SchedulerTick,
  bus: ctx.bus,
  log: ctx.log,
  handle: async (tick) => {
    await sweepAnalysis(
      { ...ctx, finder: staleAudits },
      {
        pendingAfterMs: ctx.config.ANALYSIS_SWEEP_PENDING_AFTER_SECONDS * 1000,
        failedAfterMs: ctx.config.ANALYSIS_SWEEP_FAILED_AFTER_SECONDS * 1000,
        maxAttempts: ctx.config.ANALYSIS_SWEEP_MAX_ATTEMPTS,
        limit: ctx.config.ANALYSIS_SWEEP_LIMIT,
        dryRun: tick.dry_run ?? false,
      },
    );
  },
});

http('analyzeBiasHttp', analyzeBiasHttpHandler);
http('analyzeBiasWorker', pubsubPushEndpoint(analyzeBiasWorkerHandler, ctx.log));
http('analysisSweeper', pubsubPushEndpoint(analysisSweeperHandler, ctx.log));
