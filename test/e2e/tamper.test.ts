// Acceptance (issue: foundation): tampering with a stored event makes `verify-audit` fail and name the event.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { stackContext, waitFor } from '../support/e2e';
import { interactionPayload } from '../support/interactions';
import { uniqueTenant } from '../support/tenants';

const run = promisify(execFile);
const ctx = stackContext();

async function verify(tenant: string, id: string) {
  try {
    const { stdout } = await run(process.execPath, ['bin/bias-monitor.js', 'verify-audit', '--tenant', tenant, '--id', id], {
      env: { ...process.env, FIRESTORE_EMULATOR_HOST: ctx.env.FIRESTORE_EMULATOR_HOST, GCLOUD_PROJECT: ctx.env.GCLOUD_PROJECT },
    });
    return { code: 0, stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, stdout: err.stdout };
  }
}

describe('tamper evidence', () => {
  it('verify-audit passes on an untouched audit and names the event that was altered', async () => {
    const tenant = uniqueTenant('tamper');
    const token = await ctx.token(tenant);
    const res = await fetch(`${ctx.urls.auditWriteHttp}/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(interactionPayload(4, { interaction_id: 'victim' })),
    });
    expect(res.status).toBe(201);
    const doc = ctx.db.doc(`tenants/${tenant}/audits/victim`);
    await waitFor(async () => (await doc.get()).data()?.bias_status === 'ANALYZED', 30_000);

    const clean = await verify(tenant, 'victim');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/OK\s+victim: 2 events, chain valid/);

    // Rewrite history: claim the analysis found no bias.
    const event = doc.collection('events').doc('000002');
    const original = (await event.get()).data()!;
    await event.update({ 'payload.bias_detected': !original.payload.bias_detected });
    const tampered = await verify(tenant, 'victim');
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('event 000002');
    expect(tampered.stdout).toMatch(/altered/);

    // Restore the event, then edit the record itself behind the chain's back.
    await event.set(original);
    expect((await verify(tenant, 'victim')).code).toBe(0);
    await doc.update({ bias_detected: false, bias_type: [] });
    const edited = await verify(tenant, 'victim');
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(/record fields differ/);
  });
});
