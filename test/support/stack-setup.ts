// Vitest global setup for e2e and reliability suites: one whole local stack (with fault injection) per run,
// on a free port range so it can run beside `npm start` or another suite.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { freeOffset } from '../../scripts/lib/emulators';
import { startStack, type RunningStack } from '../../scripts/lib/stack';
import { FUNCTIONS } from '../../shared/topology';

let stack: RunningStack | undefined;

export async function setup(project: TestProject) {
  // STACK_ONLY=auditWriteHttp,analyzeBiasWorker,... runs a subset while developing one suite.
  const only = process.env.STACK_ONLY?.split(',').filter(Boolean);
  const portOffset = await freeOffset(FUNCTIONS.map((f) => f.port));
  stack = await startStack({
    faultInjection: true,
    importData: false,
    ticks: false,
    portOffset,
    ...(only ? { only } : {}),
    log: (l) => console.log(`[stack] ${l}`),
  });
  project.provide('stackEnv', stack.env);
  project.provide('stackLogDir', stack.logDir);
  project.provide('stackUrls', Object.fromEntries(FUNCTIONS.filter((f) => !only || only.includes(f.entryPoint)).map((f) => [f.entryPoint, stack!.url(f.entryPoint)])));
}

export async function teardown() {
  await stack?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
    stackLogDir: string;
    stackUrls: Record<string, string>;
  }
}
