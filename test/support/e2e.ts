// Helpers for suites that drive the whole local stack (test/support/stack-setup.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Firestore } from '@google-cloud/firestore';
import { PubSub, type Message } from '@google-cloud/pubsub';
import { inject } from 'vitest';
import { mintDevToken, type Role } from '../../shared/auth/tokens';
import { loadConfig } from '../../shared/config';

export function stackContext() {
  const env = inject('stackEnv');
  const urls = inject('stackUrls');
  const logDir = inject('stackLogDir');
  // Admin clients in the test process talk to the same emulators as the functions.
  Object.assign(process.env, {
    FIRESTORE_EMULATOR_HOST: env.FIRESTORE_EMULATOR_HOST,
    PUBSUB_EMULATOR_HOST: env.PUBSUB_EMULATOR_HOST,
    GCLOUD_PROJECT: env.GCLOUD_PROJECT,
  });
  const config = loadConfig(env);
  const db = new Firestore({ projectId: env.GCLOUD_PROJECT, ignoreUndefinedProperties: true });
  const pubsub = new PubSub({ projectId: env.GCLOUD_PROJECT });
  return {
    env,
    urls,
    logDir,
    db,
    pubsub,
    token: (tenantId: string, role: Role = 'service') => mintDevToken(config, { tenantId, role }),
  };
}

/** Collects messages of a topic on a fresh subscription created before the test publishes anything. */
export async function collectTopic(pubsub: PubSub, topic: string, name: string) {
  const [sub] = await pubsub.topic(topic).createSubscription(`${name}-${Date.now()}`, { ackDeadlineSeconds: 30 });
  const messages: { data: unknown; attributes: Record<string, string>; id: string }[] = [];
  sub.on('message', (m: Message) => {
    messages.push({ data: JSON.parse(m.data.toString('utf8')), attributes: m.attributes, id: m.id });
    m.ack();
  });
  return {
    messages,
    async close() {
      await sub.close();
      await sub.delete().catch(() => undefined);
    },
  };
}

export async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Structured log lines of every function in this stack run. */
export function functionLogLines(logDir: string): { file: string; line: string; entry?: Record<string, unknown> }[] {
  const out: { file: string; line: string; entry?: Record<string, unknown> }[] = [];
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log') && f !== 'emulators.log')) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry: Record<string, unknown> | undefined;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        entry = undefined;
      }
      out.push({ file, line, ...(entry ? { entry } : {}) });
    }
  }
  return out;
}

export const traceparentFor = (traceId: string) => `00-${traceId}-${'0'.repeat(15)}1-01`;
