// Composition for the GraphQL function: the shared app context plus the read-side adapters, built once per process.
import { FirestoreAuditQuery } from '../adapters/firestore/audit-query';
import { FirestoreAnalyzerConfigRepo, FirestoreBiasReportRepo, FirestoreTaxonomyRepo } from '../adapters/firestore/catalog';
import { firestoreFor } from '../adapters/firestore/client';
import { FirestoreTaskSuggestionStore } from '../adapters/firestore/task-suggestions';
import type { AppContext } from '../app/context';
import type { GraphqlDeps } from './context';

export function graphqlDeps(ctx: AppContext): GraphqlDeps {
  const db = firestoreFor(ctx.config);
  return {
    config: ctx.config,
    log: ctx.log,
    clock: ctx.clock,
    store: ctx.store,
    bus: ctx.bus,
    verifier: ctx.verifier,
    queries: new FirestoreAuditQuery(db),
    taxonomy: new FirestoreTaxonomyRepo(db),
    analyzerConfig: new FirestoreAnalyzerConfigRepo(db),
    reports: new FirestoreBiasReportRepo(db),
    tasks: new FirestoreTaskSuggestionStore(db),
  };
}
