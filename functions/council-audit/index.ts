// council-audit: HTTP POST /council-audit and the council-sessions consumer, one use case behind both.
import { http } from '@google-cloud/functions-framework';
import { auditCouncilSession } from '../../shared/app/council-audit';
import { createCouncilDeps } from '../../shared/app/council-context';
import { createAppContext } from '../../shared/app/context';
import { hasRole } from '../../shared/auth/tokens';
import { forbidden } from '../../shared/errors';
import { CouncilSessionInput } from '../../shared/schemas/council';
import { TOPICS } from '../../shared/topology';
import { httpRoutes, parseBody } from '../../shared/transport/http';
import { pubsubConsumer, pubsubPushEndpoint } from '../../shared/transport/pubsub';

const ctx = createAppContext('council-audit');
const deps = createCouncilDeps(ctx.config, 'council-audit');

export const councilAuditHttpHandler = httpRoutes(
  [
    {
      method: 'POST',
      path: '/council-audit',
      handle: async (req, res) => {
        const principal = await ctx.verifier.verify(req.headers.authorization);
        if (!hasRole(principal, 'service') && !hasRole(principal, 'admin')) throw forbidden('council audits need the service or admin role');
        const input = parseBody(CouncilSessionInput, req);
        const out = await auditCouncilSession(deps, { input, tenantId: principal.tenantId });
        res.status(out.created ? 201 : 200).json(out);
      },
    },
  ],
  ctx.log,
  ctx.config.HTTP_BODY_LIMIT_BYTES,
);

export const councilAuditConsumerHandler = pubsubConsumer({
  topic: TOPICS.councilSessions,
  schema: CouncilSessionInput,
  bus: ctx.bus,
  log: ctx.log,
  handle: async (input) => {
    await auditCouncilSession(deps, { input, tenantId: undefined });
  },
});

http('councilAuditHttp', councilAuditHttpHandler);
http('councilAuditConsumer', pubsubPushEndpoint(councilAuditConsumerHandler, ctx.log));
