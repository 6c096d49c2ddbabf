// Composition root: builds adapters from config once per process (cold start) and hands them to use cases.
import { FirestoreAuditStore } from '../adapters/firestore/audit-store';
import { firestoreFor } from '../adapters/firestore/client';
import { PubSubEventBus, pubsubFor } from '../adapters/pubsub/event-bus';
import { createTokenVerifier, type TokenVerifier } from '../auth/tokens';
import { loadConfig, type Config } from '../config';
import { cachedTenantConfigs, FirestoreTenantConfigStore } from '../adapters/firestore/tenant-config-store';
import { createLogger, type Logger } from '../logging';
import type { BiasAnalyzer } from '../ports/analyzer';
import type { AuditStore } from '../ports/audit-store';
import { systemClock, type Clock } from '../ports/clock';
import type { EventBus } from '../ports/event-bus';
import type { TenantConfigStore } from '../ports/tenant-config';
import { withFaultInjection } from './fault-injection';

export interface AppContext {
  config: Config;
  log: Logger;
  clock: Clock;
  store: AuditStore;
  bus: EventBus;
  verifier: TokenVerifier;
  analyzer(): Promise<BiasAnalyzer>;
  /** Per-tenant analyzer config, cached for 30 s per process. */
  tenantConfigs: TenantConfigStore;
}

/** `env` defaults to the process environment inside loadConfig, the one place that reads it. */
export function createAppContext(component: string, env?: Record<string, string | undefined>): AppContext {
  const config = env ? loadConfig(env) : loadConfig();
  const log = createLogger({ projectId: config.GCLOUD_PROJECT, level: config.LOG_LEVEL, component });
  const db = firestoreFor(config);
  let analyzer: Promise<BiasAnalyzer> | undefined;
  const tenantConfigs = cachedTenantConfigs(new FirestoreTenantConfigStore(db, (tenantId, error) => log.warn('invalid tenant analyzer config; using defaults', { tenantId, error })));
  return {
    config,
    log,
    clock: systemClock,
    store: new FirestoreAuditStore(db),
    bus: new PubSubEventBus(pubsubFor(config)),
    verifier: createTokenVerifier(config),
    // Loaded on first use, so functions that never analyse (graphql, retention, council) skip the detectors and weights.
    analyzer: () =>
      (analyzer ??= Promise.all([import('../domain/analyzer'), import('../domain/analyzer/default-classifier')]).then(async ([{ createAnalyzer }, { loadDefaultClassifier }]) => {
        const a = await createAnalyzer({ classifier: loadDefaultClassifier() });
        const port: BiasAnalyzer = { analyze: async (request, tenantId) => a.analyze(request, await tenantConfigs.get(tenantId)) };
        return config.FAULT_INJECTION ? withFaultInjection(port) : port;
      })),
    tenantConfigs,
  };
}
