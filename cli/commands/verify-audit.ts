import { FirestoreAuditStore } from '../../shared/adapters/firestore/audit-store';
import { firestoreFor } from '../../shared/adapters/firestore/client';
import { auditsCol } from '../../shared/adapters/firestore/paths';
import { verifyAudit } from '../../shared/app/verify-audit';
import { isAppError } from '../../shared/errors';
import { parseOptions } from '../args';
import { cliConfig } from '../env';

export const summary = 'verify the hash chain of one audit (or all of a tenant) in Firestore';
export const usage = `bias-monitor verify-audit --tenant T (--id AUDIT_ID | --all) [--json]

Reads Firestore (the local emulator at 127.0.0.1:8180 unless FIRESTORE_EMULATOR_HOST / GCLOUD_PROJECT say
otherwise), recomputes every event hash and link, and checks that the record equals the state the last event
sealed. Exit code 0 when every chain is valid, 1 when one is broken (the broken event is named), 2 on bad usage.`;

export async function run(args: string[]): Promise<number> {
  const o = parseOptions(args, { tenant: { type: 'string' }, id: { type: 'string' }, all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } }, usage);
  if (!o.tenant || (!o.id && !o.all)) {
    console.error(`--tenant and one of --id or --all are required\n\n${usage}`);
    return 2;
  }
  const db = firestoreFor(cliConfig());
  const store = new FirestoreAuditStore(db);
  const ids = o.id ? [o.id] : (await auditsCol(db, o.tenant).select().get()).docs.map((d) => d.id);
  let broken = 0;
  for (const id of ids) {
    try {
      const result = await verifyAudit(store, o.tenant, id);
      if (!result.valid) broken++;
      if (o.json) console.log(JSON.stringify({ tenant_id: o.tenant, audit_id: id, ...result }));
      else if (result.valid) console.log(`OK      ${id}: ${result.eventsChecked} events, chain valid`);
      else for (const p of result.problems) console.log(`BROKEN  ${id}: event ${p.eventId ?? '-'} (seq ${p.seq ?? '-'}): ${p.reason}`);
    } catch (e) {
      broken++;
      console.log(o.json ? JSON.stringify({ tenant_id: o.tenant, audit_id: id, valid: false, error: isAppError(e) ? e.message : String(e) }) : `ERROR   ${id}: ${isAppError(e) ? e.message : String(e)}`);
    }
  }
  if (ids.length > 1 && !o.json) console.log(`${ids.length - broken}/${ids.length} audits verified`);
  await db.terminate();
  return broken === 0 ? 0 : 1;
}
