// retention: consumes scheduler ticks on `retention-ticks` (Cloud Scheduler in production, the stack's tick
// emulation locally) and runs the retention use case. A tick may carry `now` and `dry_run`.
import { http } from '@google-cloud/functions-framework';
import { createAppContext } from '../../shared/app/context';
import { runRetention } from '../../shared/app/retention';
import { createRetentionDeps } from '../../shared/app/retention-deps';
import { fixedClock } from '../../shared/ports/clock';
import { validationFailed } from '../../shared/errors';
import { SchedulerTick } from '../../shared/schemas/messages';
import { TOPICS } from '../../shared/topology';
import { pubsubConsumer, pubsubPushEndpoint } from '../../shared/transport/pubsub';

const ctx = createAppContext('retention');
const MAX_TICK_LEAD_MS = 5 * 60_000;
const deps = createRetentionDeps(ctx);

export const retentionJobHandler = pubsubConsumer({
  topic: TOPICS.retentionTicks,
  schema: SchedulerTick,
  bus: ctx.bus,
  log: ctx.log,
  handle: async (tick, { log }) => {
    // Scheduler ticks are at-least-once: a repeat run is harmless because the job is idempotent.
    // A tick's `now` (the scheduled time) may lag the real clock, never lead it: a future `now` would purge early.
    if (tick.now && Date.parse(tick.now) > ctx.clock.now().getTime() + MAX_TICK_LEAD_MS) {
      throw validationFailed([{ path: 'now', message: 'is in the future; refusing to apply retention early' }]);
    }
    const clock = tick.now ? fixedClock(tick.now) : ctx.clock;
    const report = await runRetention({ ...deps, clock, log }, { dryRun: tick.dry_run ?? false });
    log.info('retention tick handled', { runId: report.run_id, ...report.totals, durationMs: report.duration_ms });
  },
});

http('retentionJob', pubsubPushEndpoint(retentionJobHandler, ctx.log));
