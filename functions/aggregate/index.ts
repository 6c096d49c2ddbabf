// aggregate: Cloud Scheduler tick on aggregate-ticks → pooled council bias reports per tenant.
import { http } from '@google-cloud/functions-framework';
import { runAggregateJob } from '../../shared/app/aggregate';
import { createCouncilDeps } from '../../shared/app/council-context';
import { createAppContext } from '../../shared/app/context';
import { AggregateTick } from '../../shared/schemas/council';
import { TOPICS } from '../../shared/topology';
import { pubsubConsumer, pubsubPushEndpoint } from '../../shared/transport/pubsub';

const ctx = createAppContext('aggregate');
const deps = createCouncilDeps(ctx.config, 'aggregate');

export const aggregateJobHandler = pubsubConsumer({
  topic: TOPICS.aggregateTicks,
  schema: AggregateTick,
  bus: ctx.bus,
  log: ctx.log,
  handle: async (tick) => {
    await runAggregateJob(deps, { ...(tick.now ? { now: tick.now } : {}), ...(tick.tenant_id ? { tenantId: tick.tenant_id } : {}) });
  },
});

http('aggregateJob', pubsubPushEndpoint(aggregateJobHandler, ctx.log));
