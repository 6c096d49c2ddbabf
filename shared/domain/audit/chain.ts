// Per-record SHA-256 hash chain. Each event seals the record's state after it was applied, so a change to
// the record that did not go through an event, or a change to any stored event, breaks verification.
import { AuditRecord, type AuditEvent, type AuditEventType } from '../../schemas/audit';
import { canonicalJson, sha256Hex } from '../canonical-json';

export const GENESIS_HASH = '0'.repeat(64);
const SEALED_FIELDS = Object.keys(AuditRecord.shape) as (keyof AuditRecord)[];

export function sealedState(record: AuditRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SEALED_FIELDS) out[k] = record[k];
  return out;
}

export const stateDigest = (record: AuditRecord) => sha256Hex(canonicalJson(sealedState(record)));

export interface EventDraft {
  type: AuditEventType;
  at: string;
  key: string | null;
  actor: string;
  payload: Record<string, unknown>;
}

export function eventHash(tenantId: string, auditId: string, e: Omit<AuditEvent, 'hash'>): string {
  return sha256Hex(
    canonicalJson({
      tenant_id: tenantId,
      audit_id: auditId,
      seq: e.seq,
      type: e.type,
      at: e.at,
      key: e.key,
      actor: e.actor,
      payload: e.payload,
      state_digest: e.state_digest,
      prev_hash: e.prev_hash,
    }),
  );
}

/** Seals `recordAfter` with a new event linked to `head`. */
export function sealEvent(
  tenantId: string,
  auditId: string,
  head: { seq: number; hash: string } | null,
  draft: EventDraft,
  recordAfter: AuditRecord,
): AuditEvent {
  const body = {
    seq: (head?.seq ?? 0) + 1,
    ...draft,
    state_digest: stateDigest(recordAfter),
    prev_hash: head?.hash ?? GENESIS_HASH,
  };
  return { ...body, hash: eventHash(tenantId, auditId, body) };
}

export interface ChainProblem {
  seq: number | null;
  eventId: string | null;
  reason: string;
}

export interface ChainVerification {
  valid: boolean;
  eventsChecked: number;
  problems: ChainProblem[];
}

export const eventDocId = (seq: number) => String(seq).padStart(6, '0');

/** Verifies links, hashes, sequence, stored head and that the record equals the state the last event sealed. */
export function verifyChain(
  tenantId: string,
  auditId: string,
  record: AuditRecord,
  head: { seq: number; hash: string },
  events: readonly (AuditEvent & { id?: string })[],
): ChainVerification {
  const problems: ChainProblem[] = [];
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  let prevHash = GENESIS_HASH;
  sorted.forEach((e, i) => {
    const id = e.id ?? eventDocId(e.seq);
    if (e.seq !== i + 1) problems.push({ seq: e.seq, eventId: id, reason: `sequence gap: expected ${i + 1}, found ${e.seq}` });
    if (e.prev_hash !== prevHash) problems.push({ seq: e.seq, eventId: id, reason: 'prev_hash does not match the previous event' });
    const { hash, ...body } = e;
    const { id: _ignored, ...bodyWithoutId } = body as typeof body & { id?: string };
    if (eventHash(tenantId, auditId, bodyWithoutId) !== hash) {
      problems.push({ seq: e.seq, eventId: id, reason: `event ${e.type} was altered: its content no longer matches its hash` });
    }
    prevHash = hash;
  });
  const last = sorted.at(-1);
  if (!last) {
    problems.push({ seq: null, eventId: null, reason: 'record has no events' });
  } else {
    if (head.seq !== last.seq || head.hash !== last.hash) {
      problems.push({ seq: last.seq, eventId: last.id ?? eventDocId(last.seq), reason: 'chain head on the record does not match the last event (events removed or added)' });
    }
    if (stateDigest(record) !== last.state_digest) {
      problems.push({ seq: last.seq, eventId: last.id ?? eventDocId(last.seq), reason: 'record fields differ from the state sealed by the last event' });
    }
  }
  return { valid: problems.length === 0, eventsChecked: sorted.length, problems };
}
