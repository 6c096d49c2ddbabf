// Acceptance (issue: foundation): 500 requests through the running stack.
import { describe, expect, it } from 'vitest';
import { AuditStreamEvent } from '../../shared/schemas/messages';
import { TOPICS } from '../../shared/topology';
import { collectTopic, functionLogLines, stackContext, traceparentFor, waitFor } from '../support/e2e';
import { interactionPayload, invalidPayloads, traceIdFor } from '../support/interactions';
import { uniqueTenant } from '../support/tenants';

const ctx = stackContext();

async function runPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

describe('interaction → audit → analysis → stream', () => {
  it('stores 430 distinct audits from 500 requests, analyses each once and announces each on bias.audit.stream', async () => {
    const tenant = uniqueTenant('e2e');
    const token = await ctx.token(tenant);
    const stream = await collectTopic(ctx.pubsub, TOPICS.auditStream, `e2e-stream-${tenant}`);

    const distinct = Array.from({ length: 430 }, (_, i) => ({ kind: 'valid' as const, i }));
    const repeats = Array.from({ length: 50 }, (_, k) => ({ kind: 'repeat' as const, i: (k * 37) % 430 }));
    const invalid = invalidPayloads().map((p, k) => ({ kind: 'invalid' as const, i: k, payload: p }));
    expect(invalid).toHaveLength(20);
    // Interleave deterministically so repeats can race their originals.
    const requests = [...distinct, ...repeats, ...invalid].sort((a, b) => ((a.i * 7919 + a.kind.length) % 500) - ((b.i * 7919 + b.kind.length) % 500));

    const statuses = new Map<number, number>();
    const badFieldResponses: { field: string; status: number; body: { error?: { code?: string; message?: string; issues?: { path: string }[] } } }[] = [];
    await runPool(requests, 16, async (r) => {
      const body = r.kind === 'invalid' ? r.payload.body : interactionPayload(r.i);
      const res = await fetch(`${ctx.urls.auditWriteHttp}/interactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, traceparent: traceparentFor(traceIdFor(tenant, r.i)) },
        body: JSON.stringify(body),
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const json = (await res.json()) as never;
      if (r.kind === 'invalid') badFieldResponses.push({ field: r.payload.field, status: res.status, body: json });
    });

    // 430 created (201) + 50 repeats returned (200) + 20 rejected (400); nothing at 5xx.
    expect(Object.fromEntries(statuses)).toEqual({ 201: 430, 200: 50, 400: 20 });
    for (const r of badFieldResponses) {
      expect(r.status).toBe(400);
      expect(r.body.error?.code).toBe('VALIDATION_FAILED');
      expect(r.body.error?.issues?.map((i) => i.path).join(' ') + ' ' + r.body.error?.message).toContain(r.field);
    }

    const auditsCol = ctx.db.collection(`tenants/${tenant}/audits`);
    const analysed = await waitFor(async () => {
      const snap = await auditsCol.where('bias_status', '==', 'ANALYZED').count().get();
      return snap.data().count === 430 ? snap.data().count : undefined;
    }, 120_000, 500);
    expect(analysed).toBe(430);
    const all = await auditsCol.get();
    expect(all.size).toBe(430);

    const events = await waitFor(async () => {
      const mine = stream.messages.filter((m) => m.attributes.tenant_id === tenant);
      return mine.length >= 430 ? mine : undefined;
    }, 60_000, 250);
    // Give late duplicates a moment to show up before counting exactly.
    await new Promise((r) => setTimeout(r, 1500));
    const mine = stream.messages.filter((m) => m.attributes.tenant_id === tenant);
    await stream.close();
    expect(mine).toHaveLength(430);
    expect(events.length).toBe(430);
    const byAudit = new Map(mine.map((m) => [AuditStreamEvent.parse(m.data).audit_id, AuditStreamEvent.parse(m.data)]));
    expect(byAudit.size).toBe(430);
    for (let i = 0; i < 430; i++) {
      const e = byAudit.get(`int-${i}`);
      expect(e, `stream event for int-${i}`).toBeDefined();
      expect(e!.trace_id).toBe(traceIdFor(tenant, i));
      expect(Object.keys(e!).sort()).toEqual(['audit_id', 'bias_confidence_score', 'bias_detected', 'bias_score', 'bias_type', 'tenant_id', 'timestamp', 'trace_id']);
    }

    // Stored text is masked; the e-mail and card number in the fixtures never reach Firestore.
    const stored = all.docs.map((d) => d.data());
    expect(stored.some((d) => String(d.llm_response).includes('[EMAIL]'))).toBe(true);
    expect(stored.some((d) => /jane\.doe@example\.com|4111 1111 1111 1111/.test(String(d.llm_response)))).toBe(false);

    const lines = functionLogLines(ctx.logDir);
    const errors = lines.filter((l) => l.entry?.severity === 'ERROR' || /\b5\d\d\b.*(status|Internal Server Error)/i.test(l.line));
    expect(errors.map((e) => `${e.file}: ${e.line}`)).toEqual([]);
    // No log line carries an unmasked e-mail address or the response text.
    expect(lines.filter((l) => /@example\.com|naturally better suited/.test(l.line))).toEqual([]);
  });
});
