// Vitest global setup for e2e and reliability suites: one whole local stack (with fault injection) per run.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startStack, type RunningStack } from '../../scripts/lib/stack';

let stack: RunningStack | undefined;

export async function setup(project: TestProject) {
  stack = await startStack({ faultInjection: true, importData: false, ticks: false, log: (l) => console.log(`[stack] ${l}`) });
  project.provide('stackEnv', stack.env);
  project.provide('stackLogDir', stack.logDir);
}

export async function teardown() {
  await stack?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
    stackLogDir: string;
  }
}
