// The reliability suites start their own stack (they need restart control and sweeper settings the shared e2e
// stack does not have), on a free port range, with only the functions the scenario drives.
import { freeOffset } from '../../../scripts/lib/emulators';
import { startStack, type RunningStack } from '../../../scripts/lib/stack';
import { FUNCTIONS } from '../../../shared/topology';

export const PIPELINE = ['auditWriteHttp', 'auditWriteConsumer', 'analyzeBiasHttp', 'analyzeBiasWorker', 'analysisSweeper'];

export async function startReliabilityStack(opts: { only?: string[]; env?: Record<string, string>; quiet?: boolean } = {}): Promise<RunningStack> {
  const portOffset = await freeOffset(FUNCTIONS.map((f) => f.port));
  return startStack({
    portOffset,
    faultInjection: true,
    importData: false,
    ticks: false,
    only: opts.only ?? PIPELINE,
    env: {
      // The scenario ticks the sweeper itself (every few seconds instead of every 5 min) with short thresholds.
      ANALYSIS_SWEEP_PENDING_AFTER_SECONDS: '30',
      // Short, so audits whose request the Pub/Sub crash lost are re-requested within the run.
      ANALYSIS_SWEEP_FAILED_AFTER_SECONDS: '30',
      ...opts.env,
    },
    log: opts.quiet ? () => {} : (l) => console.log(`[stack] ${l}`),
  });
}
