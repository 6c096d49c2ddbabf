// Reliability run (issue 6 item 4): nothing lost, duplicated or left behind under duplicates, reordering,
// analyzer faults and a Pub/Sub crash. Size: RELIABILITY_INTERACTIONS (default 1500; `npm run bench:soak` runs 10,000).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../scripts/lib/stack';
import { figuresTable, runScenario } from './support/scenario';
import { startReliabilityStack } from './support/stack';

const N = Number(process.env.RELIABILITY_INTERACTIONS ?? 1500);
let stack: RunningStack;

describe(`reliability: ${N} interactions through the running stack`, () => {
  beforeAll(async () => {
    stack = await startReliabilityStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('loses, duplicates and leaks nothing, and recovers from the Pub/Sub crash', async () => {
    const f = await runScenario(stack, { interactions: N });
    console.log(`\nReliability figures (${N} interactions):\n${figuresTable(f)}\n`);
    expect(f.quiescent).toBe(true);
    expect(f.http4xx).toBe(0);
    expect(f.audits).toBe(f.interactions);
    expect(f.unknownAudits).toBe(0);
    expect(f.duplicateCreatedEvents).toBe(0);
    expect(f.duplicateAnalyzedEvents).toBe(0);
    expect(f.pending).toBe(0);
    expect(f.analyzed).toBe(f.interactions - f.injectedAlways);
    expect(f.failed).toBe(f.injectedAlways);
    expect(f.failedThenRetried).toBe(f.injectedRecoverable);
    expect(f.alwaysFailedWith5Attempts).toBe(f.injectedAlways);
    expect(f.alwaysOnDlq).toBe(f.injectedAlways);
    expect(f.streamDistinct).toBe(f.analyzed);
    expect(f.streamMissing).toBe(0);
    expect(f.streamUnknown).toBe(0);
    expect(f.chainsVerified).toBe(f.audits);
    expect(f.chainsBroken).toBe(0);
    expect(f.restartMs).not.toBeNull();
  });
});
