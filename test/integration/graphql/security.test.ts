// Attack suite: authentication failures, role escalation and cross-tenant reads, every one refused with the
// right code and zero records of the victim tenant returned. Also: limits enforced before execution,
// introspection off in production, RS256 tokens from a JWKS URL, and the functions-framework wiring.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, mintDevToken } from '../../../shared/auth/tokens';
import { uniqueTenant } from '../../support/tenants';
import { SECRET, codes, createHarness, seedAudit, testConfig, type GqlResult, type Harness } from './harness';

let h: Harness;
let victim: string;
let attacker: string;
const victimIds: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  victim = uniqueTenant('victim');
  attacker = uniqueTenant('attacker');
  for (let i = 0; i < 3; i++) {
    victimIds.push(await seedAudit(h, victim, { input: { decision_id: 'shared-decision', user_id: 'u-victim' }, report: { bias_detected: true, bias_type: ['gender'], confidence: 0.9 } }));
  }
  await seedAudit(h, attacker, { input: { decision_id: 'attacker-decision', user_id: 'u-att' }, report: { bias_detected: true, bias_type: ['age'], confidence: 0.6 } });
});

/** Counts every occurrence of the victim's tenant id or audit ids anywhere in a response. */
const victimRecords = (r: GqlResult) => {
  const text = JSON.stringify(r.body.data ?? null);
  return victimIds.filter((id) => text.includes(id)).length + (text.includes(victim) ? 1 : 0);
};

const LIST = `{ llmInteractionAudits(pagination: { limit: 100 }) { id tenantId } }`;
const results: { attack: string; code: string; victimRecords: number }[] = [];

async function expectRefused(attack: string, r: GqlResult, code: string) {
  const got = codes(r);
  results.push({ attack, code: got.join(',') || '(none)', victimRecords: victimRecords(r) });
  expect(got).toContain(code);
  expect(victimRecords(r)).toBe(0);
}

afterAll(() => {
  console.log('attack suite results (victim records returned per attack):');
  console.table(results);
  console.log(`attacks: ${results.length}, refused with the expected code: ${results.filter((r) => r.code !== '(none)').length}, victim records returned in total: ${results.reduce((n, r) => n + r.victimRecords, 0)}`);
});

describe('authentication', () => {
  it('no token', async () => {
    const r = await h.gql(LIST, {}, null);
    expect(r.status).toBe(401);
    await expectRefused('no token', r, 'UNAUTHENTICATED');
  });

  it('expired token', async () => {
    const token = await mintDevToken(h.config, { tenantId: victim, role: 'viewer', expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const r = await h.gql(LIST, {}, token);
    expect(r.body.errors?.[0]?.message).toMatch(/expired/);
    await expectRefused('expired token', r, 'UNAUTHENTICATED');
  });

  it('wrong signature', async () => {
    const forged = await mintDevToken(testConfig({ AUTH_HS256_SECRET: 'another-secret-that-is-at-least-32-bytes' }), { tenantId: victim, role: 'admin' });
    await expectRefused('wrong signature', await h.gql(LIST, {}, forged), 'UNAUTHENTICATED');
  });

  it('wrong issuer and wrong audience', async () => {
    const wrongIss = await mintDevToken(testConfig({ AUTH_ISSUER: 'evil-issuer' }), { tenantId: victim, role: 'viewer' });
    await expectRefused('wrong issuer', await h.gql(LIST, {}, wrongIss), 'UNAUTHENTICATED');
    const wrongAud = await mintDevToken(testConfig({ AUTH_AUDIENCE: 'other-api' }), { tenantId: victim, role: 'viewer' });
    await expectRefused('wrong audience', await h.gql(LIST, {}, wrongAud), 'UNAUTHENTICATED');
  });

  it('alg=none and malformed tokens', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: 'x', tenant_id: victim, role: 'admin', iss: h.config.AUTH_ISSUER, aud: h.config.AUTH_AUDIENCE })).toString('base64url');
    await expectRefused('alg none', await h.gql(LIST, {}, `${header}.${body}.`), 'UNAUTHENTICATED');
    await expectRefused('garbage token', await h.gql(LIST, {}, 'not.a.jwt'), 'UNAUTHENTICATED');
  });

  it('a token without a known role', async () => {
    const token = await new SignJWT({ tenant_id: victim, role: 'superuser' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer(h.config.AUTH_ISSUER)
      .setAudience(h.config.AUTH_AUDIENCE)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    await expectRefused('unknown role', await h.gql(LIST, {}, token), 'UNAUTHENTICATED');
  });
});

describe('authorisation', () => {
  it('a viewer cannot call any mutation', async () => {
    const v = await h.token(victim, 'viewer');
    const id = victimIds[0]!;
    const mutations = [
      `mutation { recordBiasReview(id: "${id}", input: { humanReviewed: true, verdict: DISMISSED }) { id } }`,
      `mutation { updateLlmInteractionAuditBias(id: "${id}", input: { biasDetected: false }) { id } }`,
      `mutation { upsertBiasTaxonomyEntry(input: { biasKey: "x_x", description: "x", severityLevel: 1 }) { biasKey } }`,
      `mutation { updateTenantAnalyzerConfig(input: { detectionThreshold: 0.9 }) { version } }`,
      `mutation { upsertDomainRule(input: { id: "r", biasType: ["gender"], description: "x", all: [["a"]] }) { version } }`,
      `mutation { deleteDomainRule(id: "r") { version } }`,
    ];
    for (const m of mutations) {
      const r = await h.gql(m, {}, v);
      results.push({ attack: `viewer: ${m.slice(11, 45)}`, code: codes(r).join(','), victimRecords: 0 });
      expect(codes(r)).toEqual(['FORBIDDEN']);
      expect(r.body.data).toBeNull();
    }
    const after = await h.gql(`query($id: ID!) { llmInteractionAudit(id: $id) { humanReviewed biasDetected events { seq } } }`, { id }, v);
    expect(after.body.data!.llmInteractionAudit).toMatchObject({ humanReviewed: false, biasDetected: true });
    expect(after.body.data!.llmInteractionAudit.events).toHaveLength(2);
  });

  it('a reviewer cannot write analysis results, an admin cannot either (service only)', async () => {
    for (const role of ['reviewer', 'admin'] as const) {
      const r = await h.gql(`mutation { updateLlmInteractionAuditBias(id: "${victimIds[0]}", input: { biasDetected: false }) { id } }`, {}, await h.token(victim, role));
      expect(codes(r)).toEqual(['FORBIDDEN']);
    }
  });
});

describe('tenant isolation (attacker holds a valid admin token of another tenant)', () => {
  let att: string;
  beforeAll(async () => {
    att = await h.token(attacker, 'admin');
  });

  it('by id', async () => {
    for (const id of victimIds) {
      await expectRefused('audit by id', await h.gql(`query($id: ID!) { llmInteractionAudit(id: $id) { id tenantId } }`, { id }, att), 'NOT_FOUND');
    }
  });

  it('by filter tenantId', async () => {
    const f = { tenantId: victim };
    await expectRefused('list with filter.tenantId', await h.gql(`query($f: LlmInteractionAuditFilterInput) { llmInteractionAudits(filter: $f) { id } }`, { f }, att), 'FORBIDDEN');
    await expectRefused('connection with filter.tenantId', await h.gql(`query($f: LlmInteractionAuditFilterInput) { llmInteractionAuditConnection(filter: $f) { edges { node { id } } } }`, { f }, att), 'FORBIDDEN');
  });

  it('by filters matching only the victim (user, decision) return the attacker’s own data only', async () => {
    const r = await h.gql(`{ a: llmInteractionAudits(filter: { userId: "u-victim" }) { id } b: llmInteractionAudits(filter: { decisionId: "shared-decision" }) { id } c: llmInteractionAudits { tenantId } }`, {}, att);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data!.a).toEqual([]);
    expect(r.body.data!.b).toEqual([]);
    expect(r.body.data!.c.every((a: { tenantId: string }) => a.tenantId === attacker)).toBe(true);
    results.push({ attack: 'victim-only filters (empty result)', code: '(empty)', victimRecords: victimRecords(r) });
    expect(victimRecords(r)).toBe(0);
  });

  it('via decision and explain', async () => {
    await expectRefused('decision of the victim', await h.gql(`{ decision(id: "shared-decision") { interactions { id } biasEvents { auditId } } }`, {}, att), 'NOT_FOUND');
    await expectRefused('explain of a victim audit', await h.gql(`query($id: ID!) { explain(auditId: $id) { auditId findings { detector } } }`, { id: victimIds[0] }, att), 'NOT_FOUND');
  });

  it('via mutations on the victim’s audit', async () => {
    const rev = await h.token(attacker, 'reviewer');
    await expectRefused('review a victim audit', await h.gql(`mutation($id: ID!) { recordBiasReview(id: $id, input: { humanReviewed: true }) { id } }`, { id: victimIds[0] }, rev), 'NOT_FOUND');
    const svc = await h.token(attacker, 'service');
    await expectRefused('bias update on a victim audit', await h.gql(`mutation($id: ID!) { updateLlmInteractionAuditBias(id: $id, input: { biasDetected: false }) { id } }`, { id: victimIds[0] }, svc), 'NOT_FOUND');
  });

  it('via a cursor crafted to point into the victim’s data', async () => {
    const cursor = Buffer.from(JSON.stringify({ f: 'log_timestamp', d: 'desc', v: '2999-01-01T00:00:00.000Z', id: victimIds[0] })).toString('base64url');
    const r = await h.gql(`query($a: String) { llmInteractionAuditConnection(after: $a) { edges { node { id tenantId } } } }`, { a: cursor }, att);
    results.push({ attack: 'crafted cursor', code: '(own data only)', victimRecords: victimRecords(r) });
    expect(victimRecords(r)).toBe(0);
    expect(r.body.data!.llmInteractionAuditConnection.edges.every((e: { node: { tenantId: string } }) => e.node.tenantId === attacker)).toBe(true);
  });
});

describe('limits run before execution', () => {
  it('a query deeper than GRAPHQL_MAX_DEPTH is rejected and no resolver runs', async () => {
    const limited = await createHarness({ GRAPHQL_MAX_DEPTH: '3' });
    const token = await limited.token(attacker, 'viewer');
    Object.assign(limited.reads, { get: 0, queries: 0, events: 0 });
    const q = `{ decision(id: "attacker-decision") { interactions { events { payload } } } }`;
    const r = await limited.gql(q, {}, token);
    expect(codes(r)).toEqual(['DEPTH_LIMIT_EXCEEDED']);
    expect(r.body.data).toBeUndefined();
    expect(limited.reads).toEqual({ get: 0, queries: 0, events: 0 });
    // The same query under the default limit runs (and reads).
    const ok = await h.gql(q, {}, await h.token(attacker, 'viewer'));
    expect(ok.body.errors).toBeUndefined();
  });

  it('a query costlier than GRAPHQL_MAX_COST is rejected and no resolver runs', async () => {
    const limited = await createHarness({ GRAPHQL_MAX_COST: '30' });
    const token = await limited.token(attacker, 'viewer');
    Object.assign(limited.reads, { get: 0, queries: 0, events: 0 });
    const fields = 'id tenantId userId llmProvider llmModel biasDetected biasType biasScore biasConfidenceScore humanReviewed reviewNotes traceId decisionId promptHash outputHash';
    const r = await limited.gql(`{ a: llmInteractionAudits { ${fields} events { seq type at actor payload hash prevHash } } }`, {}, token);
    expect(codes(r)).toContain('COST_LIMIT_EXCEEDED');
    expect(limited.reads).toEqual({ get: 0, queries: 0, events: 0 });
  });

  it('too many aliases are rejected before execution', async () => {
    Object.assign(h.reads, { get: 0, queries: 0, events: 0 });
    const q = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: me { subject }`).join(' ')} }`;
    const r = await h.gql(q, {}, await h.token(attacker, 'viewer'));
    expect(codes(r)).toContain('ALIAS_LIMIT_EXCEEDED');
    expect(h.reads).toEqual({ get: 0, queries: 0, events: 0 });
  });

  it('introspection is off in production and on in development', async () => {
    const prod = await createHarness({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' });
    const r = await prod.gql(`{ __schema { queryType { name } } }`, {}, await prod.token(attacker, 'viewer'));
    expect(codes(r)).toContain('INTROSPECTION_DISABLED');
    // Field suggestions are blocked too: an unknown field does not leak near-miss names.
    const s = await prod.gql(`{ llmInteractionAudit(id: "x") { biasDetecte } }`, {}, await prod.token(attacker, 'viewer'));
    expect(JSON.stringify(s.body.errors)).not.toContain('Did you mean');
    const dev = await createHarness({ NODE_ENV: 'development' });
    const d = await dev.gql(`{ __schema { queryType { name } } }`, {}, await dev.token(attacker, 'viewer'));
    expect(d.body.data!.__schema.queryType.name).toBe('Query');
  });
});

describe('RS256 tokens from a JWKS URL', () => {
  let server: Server;
  let jwksUrl: string;
  let privateKey: CryptoKey;
  let otherKey: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey as CryptoKey;
    otherKey = (await generateKeyPair('RS256')).privateKey as CryptoKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const sign = (key: CryptoKey, claims: Record<string, unknown>, opts: { iss?: string; aud?: string; kid?: string } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? 'k1' })
      .setSubject('firebase-user-1')
      .setIssuer(opts.iss ?? 'https://securetoken.google.com/demo-bias-monitor')
      .setAudience(opts.aud ?? 'demo-bias-monitor')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(key);

  it('accepts a token signed by the JWKS key and refuses others', async () => {
    const rs = await createHarness({ AUTH_JWKS_URL: jwksUrl, AUTH_ISSUER: 'https://securetoken.google.com/demo-bias-monitor', AUTH_AUDIENCE: 'demo-bias-monitor' });
    const good = await sign(privateKey, { tenant_id: attacker, role: 'viewer' });
    const ok = await rs.gql(`{ me { subject tenantId role } llmInteractionAudits { tenantId } }`, {}, good);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data!.me).toEqual({ subject: 'firebase-user-1', tenantId: attacker, role: 'viewer' });
    expect(ok.body.data!.llmInteractionAudits.every((a: { tenantId: string }) => a.tenantId === attacker)).toBe(true);
    await expectRefused('RS256 signed by an unknown key', await rs.gql(LIST, {}, await sign(otherKey, { tenant_id: victim, role: 'admin' })), 'UNAUTHENTICATED');
    await expectRefused('RS256 wrong issuer', await rs.gql(LIST, {}, await sign(privateKey, { tenant_id: victim, role: 'viewer' }, { iss: 'https://evil.example' })), 'UNAUTHENTICATED');
    await expectRefused('RS256 wrong audience', await rs.gql(LIST, {}, await sign(privateKey, { tenant_id: victim, role: 'viewer' }, { aud: 'other-project' })), 'UNAUTHENTICATED');
    // An HS256 token signed with a secret must not be accepted by an RS256 verifier (algorithm confusion).
    const hs = await mintDevToken(testConfig({ AUTH_ISSUER: 'https://securetoken.google.com/demo-bias-monitor', AUTH_AUDIENCE: 'demo-bias-monitor' }), { tenantId: victim, role: 'admin' });
    await expectRefused('HS256 token against the RS256 verifier', await rs.gql(LIST, {}, hs), 'UNAUTHENTICATED');
    expect(createTokenVerifier(rs.config)).toBeTruthy();
  });
});

describe('functions-framework wiring', () => {
  it('functions/graphql registers the yoga server as the `graphql` HTTP function', async () => {
    process.env.AUTH_HS256_SECRET = SECRET;
    process.env.NODE_ENV = 'test';
    process.env.LOG_LEVEL = 'ERROR';
    await import('../../../functions/graphql/index');
    const { getTestServer } = await import('@google-cloud/functions-framework/testing');
    const server = getTestServer('graphql');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const token = await h.token(attacker, 'viewer');
      for (const path of ['/', '/graphql']) {
        const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: '{ me { tenantId } llmInteractionAudits { tenantId } }' }) });
        const body = (await res.json()) as { data: { me: { tenantId: string }; llmInteractionAudits: { tenantId: string }[] } };
        expect(body.data.me.tenantId).toBe(attacker);
        expect(body.data.llmInteractionAudits.length).toBeGreaterThan(0);
      }
      const anon = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ me { tenantId } }' }) });
      expect(anon.status).toBe(401);
      // What Express would answer with an HTML page comes back as GraphQL-shaped JSON with a stable code.
      const badJson = await fetch(base + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"query":' });
      expect(badJson.status).toBe(400);
      expect(((await badJson.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('VALIDATION_FAILED');
      const plain = await fetch(base + '/graphql', { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` }, body: '{ me { tenantId } }' });
      expect(plain.status).toBe(415);
      expect(((await plain.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('VALIDATION_FAILED');
      const elsewhere = await fetch(base + '/admin', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(elsewhere.status).toBe(404);
      expect(((await elsewhere.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('NOT_FOUND');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
