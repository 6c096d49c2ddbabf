import { verifyChain, type ChainVerification } from '../domain/audit/chain';
import { notFound } from '../errors';
import type { AuditStore } from '../ports/audit-store';
import { AuditRecord } from '../schemas/audit';

/** Loads an audit and its events and verifies the hash chain (and that the record matches the sealed state). */
export async function verifyAudit(store: AuditStore, tenantId: string, auditId: string): Promise<ChainVerification> {
  const [audit, events] = await Promise.all([store.get(tenantId, auditId), store.events(tenantId, auditId)]);
  if (!audit) throw notFound(`audit ${auditId} of tenant ${tenantId}`);
  return verifyChain(tenantId, auditId, AuditRecord.parse(audit), audit.chain_head, events);
}
