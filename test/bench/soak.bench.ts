// Soak (npm run bench:soak): the reliability scenario at 10,000 interactions (SOAK_INTERACTIONS to change), on its
// own stack. Prints the figures table; exits non-zero when a count is off. See docs/RELIABILITY.md.
import { figuresTable, runScenario } from '../reliability/support/scenario';
import { startReliabilityStack } from '../reliability/support/stack';

const n = Number(process.env.SOAK_INTERACTIONS ?? process.argv[2] ?? 10_000);
const stack = await startReliabilityStack({ env: { LOG_LEVEL: 'WARNING' } });
let ok = false;
try {
  const f = await runScenario(stack, { interactions: n, concurrency: 24, settleMs: 20 * 60_000 });
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
