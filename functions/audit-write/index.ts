// audit-write: HTTP POST /interactions and the llm-interactions consumer, one use case behind both.
import { http } from '@google-cloud/functions-framework';
import { createAppContext } from '../../shared/app/context';
import { recordInteraction } from '../../shared/app/record-interaction';
import { forbidden } from '../../shared/errors';
import { hasRole } from '../../shared/auth/tokens';
import { LlmInteractionInput } from '../../shared/schemas/interaction';
import { httpRoutes, parseBody } from '../../shared/transport/http';
import { pubsubConsumer, pubsubPushEndpoint } from '../../shared/transport/pubsub';
import { TOPICS } from '../../shared/topology';

const ctx = createAppContext('audit-write');

export const auditWriteHttpHandler = httpRoutes(
  [
    {
      method: 'POST',
      path: '/interactions',
      handle: async (req, res) => {
        const principal = await ctx.verifier.verify(req.headers.authorization);
        if (!hasRole(principal, 'service')) throw forbidden('ingest needs the service role');
        const input = parseBody(LlmInteractionInput, req);
        const { created, audit } = await recordInteraction(ctx, {
          input,
          tenantId: principal.tenantId,
          traceparent: req.headers.traceparent as string | undefined,
          actor: principal.subject,
        });
        res.status(created ? 201 : 200).json({
          audit_id: audit.id,
          tenant_id: audit.tenant_id,
          trace_id: audit.trace_id,
          created,
          bias_status: audit.bias_status,
          prompt_hash: audit.prompt_hash,
          output_hash: audit.output_hash,
          redaction_summary: audit.redaction_summary,
        });
      },
    },
  ],
  ctx.log,
  ctx.config.HTTP_BODY_LIMIT_BYTES,
);

export const auditWriteConsumerHandler = pubsubConsumer({
  topic: TOPICS.llmInteractions,
  schema: LlmInteractionInput,
  bus: ctx.bus,
  log: ctx.log,
  handle: async (input, msg) => {
    await recordInteraction(ctx, { input, tenantId: undefined, traceparent: msg.attributes.traceparent, actor: 'pubsub:llm-interactions' });
  },
});

http('auditWriteHttp', auditWriteHttpHandler);
http('auditWriteConsumer', pubsubPushEndpoint(auditWriteConsumerHandler, ctx.log));
