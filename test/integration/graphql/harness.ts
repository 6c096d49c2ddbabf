// Test harness: the real yoga server over the Firestore and Pub/Sub emulators, with recording wrappers of our
// own ports (query shapes issued, messages published, resolver-side reads).
import { randomUUID } from 'node:crypto';
import { Firestore } from '@google-cloud/firestore';
import { PubSub } from '@google-cloud/pubsub';
import { FirestoreAuditQuery } from '../../../shared/adapters/firestore/audit-query';
import { FirestoreAuditStore } from '../../../shared/adapters/firestore/audit-store';
import { FirestoreAnalyzerConfigRepo, FirestoreBiasReportRepo, FirestoreTaxonomyRepo } from '../../../shared/adapters/firestore/catalog';
import { FirestoreTaskSuggestionStore } from '../../../shared/adapters/firestore/task-suggestions';
import type { QueryShape } from '../../../shared/adapters/firestore/index-coverage';
import { PubSubEventBus } from '../../../shared/adapters/pubsub/event-bus';
import { applyBiasUpdate } from '../../../shared/app/bias-results';
import { createTokenVerifier, mintDevToken, type Role } from '../../../shared/auth/tokens';
import { loadConfig, type Config } from '../../../shared/config';
import { newAuditRecord } from '../../../shared/domain/audit/record';
import { createLogger } from '../../../shared/logging';
import type { EventBus } from '../../../shared/ports/event-bus';
import { systemClock } from '../../../shared/ports/clock';
import type { BiasReport } from '../../../shared/schemas/analysis';
import type { LlmInteractionInput } from '../../../shared/schemas/interaction';
import { TOPICS } from '../../../shared/topology';
import { createGraphqlServer, type GraphqlDeps } from '../../../shared/graphql/server';

export const SECRET = 'graphql-integration-secret-0123456789abcdef';

export function testConfig(extra: Record<string, string> = {}): Config {
  return loadConfig({
    GCLOUD_PROJECT: process.env.GCLOUD_PROJECT,
    FIRESTORE_EMULATOR_HOST: process.env.FIRESTORE_EMULATOR_HOST,
    PUBSUB_EMULATOR_HOST: process.env.PUBSUB_EMULATOR_HOST,
    NODE_ENV: 'test',
    LOG_LEVEL: 'ERROR',
    AUTH_HS256_SECRET: SECRET,
    TASK_SUGGESTION_THRESHOLD: '3',
    ...extra,
  });
}

let db: Firestore | undefined;
export const firestore = () => (db ??= new Firestore({ projectId: process.env.GCLOUD_PROJECT, ignoreUndefinedProperties: true }));

let topicsReady: Promise<void> | undefined;
export function ensureTopics(): Promise<void> {
  topicsReady ??= (async () => {
    const ps = new PubSub({ projectId: process.env.GCLOUD_PROJECT });
    for (const t of Object.values(TOPICS)) {
      await ps.createTopic(t).catch((e: { code?: number }) => {
        if (e.code !== 6) throw e;
      });
    }
  })();
  return topicsReady;
}

export interface Published {
  topic: string;
  payload: Record<string, unknown>;
}

export interface Harness {
  deps: GraphqlDeps;
  config: Config;
  published: Published[];
  shapes: QueryShape[];
  /** Counts of port calls that read data (to prove nothing ran). */
  reads: { get: number; queries: number; events: number };
  gql(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GqlResult>;
  token(tenantId: string, role: Role, subject?: string): Promise<string>;
}

export interface GqlResult {
  status: number;
  body: { data?: Record<string, any> | null; errors?: { message: string; path?: string[]; extensions?: Record<string, any> }[] };
}

export async function createHarness(extraEnv: Record<string, string> = {}): Promise<Harness> {
  await ensureTopics();
  const config = testConfig(extraEnv);
  const log = createLogger({ projectId: config.GCLOUD_PROJECT, level: 'ERROR', component: 'graphql-test' });
  const published: Published[] = [];
  const realBus = new PubSubEventBus(new PubSub({ projectId: config.GCLOUD_PROJECT }));
  const bus: EventBus = {
    async publish(topic, payload, attributes) {
      const id = await realBus.publish(topic, payload, attributes);
      published.push({ topic, payload: payload as Record<string, unknown> });
      return id;
    },
  };
  const shapes: QueryShape[] = [];
  const reads = { get: 0, queries: 0, events: 0 };
  const store = new FirestoreAuditStore(firestore());
  const countedStore = Object.assign(Object.create(store) as FirestoreAuditStore, {
    get: (t: string, id: string) => (reads.get++, store.get(t, id)),
    events: (t: string, id: string) => (reads.events++, store.events(t, id)),
  });
  const queries = new FirestoreAuditQuery(firestore(), (s) => {
    reads.queries++;
    shapes.push(s);
  });
  const deps: GraphqlDeps = {
    config,
    log,
    clock: systemClock,
    store: countedStore,
    bus,
    verifier: createTokenVerifier(config),
    queries,
    taxonomy: new FirestoreTaxonomyRepo(firestore()),
    analyzerConfig: new FirestoreAnalyzerConfigRepo(firestore()),
    reports: new FirestoreBiasReportRepo(firestore()),
    tasks: new FirestoreTaskSuggestionStore(firestore()),
  };
  const yoga = createGraphqlServer(deps);
  return {
    deps,
    config,
    published,
    shapes,
    reads,
    token: (tenantId, role, subject) => mintDevToken(config, { tenantId, role, ...(subject ? { subject } : {}) }),
    async gql(query, variables = {}, token = null) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await yoga.fetch('http://localhost/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      return { status: res.status, body: (await res.json()) as GqlResult['body'] };
    },
  };
}

export interface SeedOptions {
  input?: Partial<LlmInteractionInput>;
  report?: Partial<BiasReport> | null;
}

/** Writes an audit through the real write path (store.create + applyBiasUpdate). */
export async function seedAudit(h: Harness, tenantId: string, opts: SeedOptions = {}) {
  const id = opts.input?.interaction_id ?? `a-${randomUUID()}`;
  const input: LlmInteractionInput = {
    original_query: 'Who should lead the new team?',
    llm_response: 'A strong candidate would be any experienced engineer.',
    llm_provider: 'openai',
    llm_model: 'gpt-4o-mini',
    status: 'success',
    ...opts.input,
  } as LlmInteractionInput;
  const now = new Date().toISOString();
  const record = newAuditRecord(input, { id, tenantId, traceId: randomUUID().replaceAll('-', ''), now });
  await h.deps.store.create(record, { type: 'created', at: now, key: 'created', actor: 'test', payload: {} });
  if (opts.report !== null && opts.report !== undefined) {
    const r = opts.report;
    await applyBiasUpdate(h.deps, {
      tenantId,
      auditId: id,
      actor: 'analyzer',
      key: 'bias_analyzed',
      update: {
        bias_detected: r.bias_detected ?? false,
        bias_type: r.bias_type ?? [],
        bias_score: r.bias_score ?? {},
        bias_confidence_score: r.confidence ?? 0,
        mitigation_action: r.mitigation_action ?? { type: 'NONE', details: '' },
        bias_report_summary: r.bias_report_summary ?? { findings: [] },
      },
    });
  }
  return id;
}

export const codes = (r: GqlResult) => (r.body.errors ?? []).map((e) => e.extensions?.code as string);
