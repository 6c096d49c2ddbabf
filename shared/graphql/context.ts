// Per-request context: the verified principal, dependencies and small per-request caches.
import { verifyChain, type ChainVerification } from '../domain/audit/chain';
import { forbidden } from '../errors';
import type { Principal, Role } from '../auth/tokens';
import { hasRole } from '../auth/tokens';
import type { Config } from '../config';
import type { Logger } from '../logging';
import type { AuditQuery } from '../ports/audit-query';
import type { AuditStore } from '../ports/audit-store';
import type { AnalyzerConfigRepo, BiasReportRepo, TaxonomyRepo, TaxonomyView } from '../ports/catalog';
import type { Clock } from '../ports/clock';
import type { EventBus } from '../ports/event-bus';
import type { TaskSuggestionStore } from '../ports/task-suggestions';
import { AuditRecord, type AuditEvent, type StoredAudit } from '../schemas/audit';
import type { TokenVerifier } from '../auth/tokens';

export interface GraphqlDeps {
  config: Config;
  log: Logger;
  clock: Clock;
  store: AuditStore;
  bus: EventBus;
  verifier: TokenVerifier;
  queries: AuditQuery;
  taxonomy: TaxonomyRepo;
  analyzerConfig: AnalyzerConfigRepo;
  reports: BiasReportRepo;
  tasks: TaskSuggestionStore;
}

export interface History {
  events: (AuditEvent & { id: string })[];
  verification: ChainVerification;
}

export type RequestContext = {
  principal: Principal;
  deps: GraphqlDeps;
  history(audit: StoredAudit): Promise<History>;
  taxonomy(): Promise<TaxonomyView[]>;
  /** Throws FORBIDDEN unless the principal holds the role. */
  require(role: Role, action: string): Principal;
};

export function createRequestContext(deps: GraphqlDeps, principal: Principal): RequestContext {
  const histories = new Map<string, Promise<History>>();
  let taxonomy: Promise<TaxonomyView[]> | undefined;
  return {
    principal,
    deps,
    history(audit) {
      // Keyed by id and head: a mutation in the same request sees its own new event.
      const k = `${audit.id}@${audit.chain_head.seq}`;
      let h = histories.get(k);
      if (!h) {
        h = loadHistory(deps, principal.tenantId, audit);
        histories.set(k, h);
      }
      return h;
    },
    taxonomy: () => (taxonomy ??= deps.taxonomy.list(principal.tenantId)),
    require(role, action) {
      if (!hasRole(principal, role)) throw forbidden(`${action} needs the ${role} role (token has ${principal.role})`);
      return principal;
    },
  };
}

async function loadHistory(deps: GraphqlDeps, tenantId: string, audit: StoredAudit): Promise<History> {
  // The audit was read with the token's tenant; events are read under the same tenant path.
  if (audit.tenant_id !== tenantId) throw forbidden('audit belongs to another tenant');
  let events: (AuditEvent & { id: string })[];
  try {
    events = await deps.store.events(tenantId, audit.id);
  } catch (e) {
    if (e instanceof Error && e.name === 'ZodError') {
      return { events: [], verification: { valid: false, eventsChecked: 0, problems: [{ seq: null, eventId: null, reason: 'an event document does not decode' }] } };
    }
    throw e;
  }
  return { events, verification: verifyChain(tenantId, audit.id, AuditRecord.parse(audit), audit.chain_head, events) };
}
