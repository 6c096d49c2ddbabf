// analyze-bias: HTTP POST /analyze-bias (FR-BIAS-4.3.2) and the bias-analysis-requests worker.
import { cloudEvent, http } from '@google-cloud/functions-framework';
import { analyzeAudit } from '../../shared/app/bias-results';
import { createAppContext } from '../../shared/app/context';
import { hasRole } from '../../shared/auth/tokens';
import { forbidden } from '../../shared/errors';
import { AnalyzeBiasRequest } from '../../shared/schemas/analysis';
import { AnalysisRequestMessage } from '../../shared/schemas/messages';
import { httpRoutes, parseBody } from '../../shared/transport/http';
import { pubsubConsumer } from '../../shared/transport/pubsub';
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

export const analyzeBiasWorkerHandler = pubsubConsumer({
  topic: TOPICS.analysisRequests,
  schema: AnalysisRequestMessage,
  bus: ctx.bus,
  log: ctx.log,
  handle: async (msg) => {
    await analyzeAudit({ ...ctx, analyzer: await ctx.analyzer() }, msg);
  },
});

http('analyzeBiasHttp', analyzeBiasHttpHandler);
cloudEvent('analyzeBiasWorker', analyzeBiasWorkerHandler);
