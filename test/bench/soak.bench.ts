// Soak (npm run bench:soak): the reliability scenario at 10,000 interactions (SOAK_INTERACTIONS to change), on its
// own stack. Prints the figures table; exits non-zero when a count is off. See docs/RELIABILITY.md.
import { figuresTable, runScenario } from '../reliability/support/scenario';
import { startReliabilityStack } from '../reliability/support/stack';

const n = Number(process.env.SOAK_INTERACTIONS ?? process.argv[2] ?? 10_000);
const stack = await startReliabilityStack({
  env: {
    LOG_LEVEL: 'WARNING',
    // At 10,000 the queue itself is minutes long; a short threshold would make the sweeper re-request every queued
    // audit each tick and flood the queue with duplicates. Ten minutes still recovers requests the crash lost.
    ANALYSIS_SWEEP_PENDING_AFTER_SECONDS: '600',
  },
});
let ok = false;
try {
  // Locally the pipeline drains at most ~14 audits/s (the emulator's push concurrency, docs/BENCHMARKS.md).
  const f = await runScenario(stack, { interactions: n, concurrency: 24, settleMs: Math.max(20 * 60_000, n * 360) });
  console.log(`\nSoak figures (${n} interactions):\n${figuresTable(f)}\n`);
  ok =
    f.quiescent &&
    f.audits === n &&
    f.unknownAudits === 0 &&
    f.duplicateCreatedEvents === 0 &&
    f.duplicateAnalyzedEvents === 0 &&
    f.pending === 0 &&
    f.failed === f.injectedAlways &&
    f.failedThenRetried === f.injectedRecoverable &&
    f.alwaysOnDlq === f.injectedAlways &&
    f.streamMissing === 0 &&
    f.streamDistinct === f.analyzed &&
    f.chainsBroken === 0;
  console.log(ok ? 'all counts hold' : 'COUNTS DO NOT HOLD');
} finally {
  await stack.stop();
}
process.exit(ok ? 0 : 1);
