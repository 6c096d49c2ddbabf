// Composition root: builds adapters from config once per process (cold start) and hands them to use cases.
import { FirestoreAuditStore } from '../adapters/firestore/audit-store';
import { firestoreFor } from '../adapters/firestore/client';
import { PubSubEventBus, pubsubFor } from '../adapters/pubsub/event-bus';
import { createTokenVerifier, type TokenVerifier } from '../auth/tokens';
import { loadConfig, type Config } from '../config';
import { createAnalyzer } from '../domain/analyzer';
import { createLogger, type Logger } from '../logging';
import type { BiasAnalyzer } from '../ports/analyzer';
import type { AuditStore } from '../ports/audit-store';
import { systemClock, type Clock } from '../ports/clock';
import type { EventBus } from '../ports/event-bus';
import { withFaultInjection } from './fault-injection';

export interface AppContext {
  config: Config;
  log: Logger;
  clock: Clock;
  store: AuditStore;
  bus: EventBus;
  verifier: TokenVerifier;
  analyzer(): Promise<BiasAnalyzer>;
}

/** `env` defaults to the process environment inside loadConfig, the one place that reads it. */
export function createAppContext(component: string, env?: Record<string, string | undefined>): AppContext {
  const config = env ? loadConfig(env) : loadConfig();
  const log = createLogger({ projectId: config.GCLOUD_PROJECT, level: config.LOG_LEVEL, component });
  const db = firestoreFor(config);
  let analyzer: Promise<BiasAnalyzer> | undefined;
  return {
    config,
    log,
    clock: systemClock,
    store: new FirestoreAuditStore(db),
    bus: new PubSubEventBus(pubsubFor(config)),
    verifier: createTokenVerifier(config),
    analyzer: () =>
      (analyzer ??= createAnalyzer().then((a) => {
        const port: BiasAnalyzer = { analyze: (request) => a.analyze(request) };
        return config.FAULT_INJECTION ? withFaultInjection(port) : port;
      })),
  };
}
