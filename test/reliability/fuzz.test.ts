// Fuzzing (issue 6 item 4): every HTTP endpoint and every Pub/Sub consumer of shared/topology.ts that exists in this
// tree, with malformed, oversized, wrong-type and hostile input. No response may be ≥ 500; HTTP rejections are 4xx
// with a JSON `{error:{code,message}}` (GraphQL: `errors[].extensions.code`); consumers acknowledge poison messages
// and copy them to `<topic>-dlq`; and nothing a request carried leaks into the next request (prototype pollution).
import { PubSub, type Message } from '@google-cloud/pubsub';
import fc from 'fast-check';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/lib/emulators';
import type { RunningStack } from '../../scripts/lib/stack';
import { mintDevToken, type Role } from '../../shared/auth/tokens';
import { loadConfig } from '../../shared/config';
import { FUNCTIONS, deadLetterTopic, pushPath } from '../../shared/topology';
import { uniqueTenant } from '../support/tenants';
import { startReliabilityStack } from './support/stack';

const present = FUNCTIONS.filter((f) => existsSync(join(REPO_ROOT, 'functions', f.source, 'index.ts')));
const ROUTES: Record<string, { path: string; role: Role; kind: 'rest' | 'graphql' }> = {
  auditWriteHttp: { path: '/interactions', role: 'service', kind: 'rest' },
  analyzeBiasHttp: { path: '/analyze-bias', role: 'viewer', kind: 'rest' },
  graphql: { path: '/graphql', role: 'admin', kind: 'graphql' },
  councilAuditHttp: { path: '/council-audit', role: 'service', kind: 'rest' },
};
const httpTargets = present.filter((f) => !f.trigger && ROUTES[f.entryPoint]);
const consumers = present.filter((f) => f.trigger);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const LIMIT = 1_048_576;

let stack: RunningStack;
let ps: PubSub;
const tenant = uniqueTenant('fuzz');
const tokens: Record<string, string> = {};
const problems: string[] = [];

/**
 * Open findings outside this suite's reach, printed on every run and listed in docs/RELIABILITY.md; each is owned
 * elsewhere, and its entry goes when it is fixed. Anything not listed fails the test.
 */
// Findings accepted for now, each with its reason; printed on every run. Empty: consumers read the push envelope
// themselves since decision 063, so a broken envelope is a 400 instead of functions-framework's 500.
const KNOWN: { pattern: RegExp; why: string }[] = [];
const known: string[] = [];
const unexpected = (found: string[]) => {
  const rest = found.filter((p) => {
    const k = KNOWN.find((x) => x.pattern.test(p));
    if (k) known.push(`${p.split('\n')[0]!.slice(0, 160)}  [${k.why}]`);
    return !k;
  });
  problems.push(...rest);
  return rest;
};

interface Sent {
  body: Buffer | string;
  contentType?: string;
  method?: string;
  token?: boolean;
  path?: string;
}

async function send(entryPoint: string, s: Sent) {
  const route = ROUTES[entryPoint]!;
  const headers: Record<string, string> = {};
  if (s.contentType !== undefined) headers['content-type'] = s.contentType;
  if (s.token !== false) headers.authorization = `Bearer ${tokens[route.role]}`;
  let res: Response | undefined;
  for (let attempt = 0; attempt < 3 && !res; attempt++) {
    try {
      res = await fetch(stack.url(entryPoint) + (s.path ?? route.path), {
        method: s.method ?? 'POST',
        headers,
        ...(s.method === 'GET' ? {} : { body: typeof s.body === 'string' ? s.body : new Uint8Array(s.body) }),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (e) {
      // A server may close the connection on a body over its limit before reading it; that is not a 5xx.
      if (Buffer.byteLength(s.body) > LIMIT) return { status: 413, text: '', json: undefined as unknown };
      if (attempt === 2) throw e;
    }
  }
  const text = await res!.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res!.status, text, json };
}

/** The contract every answer must keep; returns a description of a breach, or null. */
function breach(entryPoint: string, r: { status: number; text: string; json: unknown }, what: string): string | null {
  const route = ROUTES[entryPoint]!;
  if (r.status >= 500) return `${entryPoint} ${what}: ${r.status} ${r.text.slice(0, 200)}`;
  if (r.text.includes('polluted')) return `${entryPoint} ${what}: response echoes a polluted property`;
  if (route.kind === 'graphql') {
    if (![200, 400, 401, 403, 404, 405, 413, 415].includes(r.status))
      return `${entryPoint} ${what}: unexpected status ${r.status}`;
    const j = r.json as { errors?: { message?: string; extensions?: { code?: string } }[]; error?: { code?: string } } | undefined;
    if (r.status === 200 && !j) return `${entryPoint} ${what}: 200 without a JSON body`;
    if (r.status >= 400 && !(j?.errors?.every((e) => typeof e.extensions?.code === 'string' && e.message) || j?.error?.code))
      return `${entryPoint} ${what}: ${r.status} without errors[].extensions.code: ${r.text.slice(0, 200)}`;
    return null;
  }
  if (r.status >= 400 && r.status !== 413) {
    const j = r.json as { error?: { code?: unknown; message?: unknown } } | undefined;
    if (typeof j?.error?.code !== 'string' || typeof j.error.message !== 'string' || !j.error.message)
      return `${entryPoint} ${what}: ${r.status} without {error:{code,message}}: ${r.text.slice(0, 200)}`;
  }
  return null;
}

const deep = (n: number, open: string, close: string, leaf = '1') => open.repeat(n) + leaf + close.repeat(n);
const validInteraction = (i: string) => ({ interaction_id: `fuzz-${i}`, original_query: 'q', llm_provider: 'p', llm_model: 'm', llm_response: 'fine' });

function hostileBodies(entryPoint: string): [string, Sent][] {
  const graphql = ROUTES[entryPoint]!.kind === 'graphql';
  const base = graphql ? { query: '{ __typename }' } : validInteraction('base');
  const json = 'application/json';
  const invalidUtf8 = Buffer.concat([Buffer.from('{"original_query":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]), Buffer.from('","llm_provider":"p","llm_model":"m","llm_response":"x"}')]);
  return [
    ['empty body', { body: '', contentType: json }],
    ['no content type', { body: JSON.stringify(base) }],
    ['text/plain', { body: JSON.stringify(base), contentType: 'text/plain' }],
    ['form', { body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' }],
    ['octet-stream', { body: Buffer.from([0, 1, 2, 255]), contentType: 'application/octet-stream' }],
    ['multipart', { body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', contentType: 'multipart/form-data; boundary=x' }],
    ['bad charset', { body: JSON.stringify(base), contentType: 'application/json; charset=ebcdic' }],
    ['invalid JSON', { body: '{"a":', contentType: json }],
    ['json null', { body: 'null', contentType: json }],
    ['json array', { body: '[1,2,3]', contentType: json }],
    ['json number', { body: '42', contentType: json }],
    ['json string', { body: '"hello"', contentType: json }],
    ['deep arrays 10k', { body: deep(10_000, '[', ']'), contentType: json }],
    ['deep objects 10k', { body: deep(10_000, '{"a":', '}'), contentType: json }],
    ['deep nested field', { body: JSON.stringify({ ...base, query_context: 'x' }).replace('"x"', deep(10_000, '{"a":', '}')), contentType: json }],
    ['string just under the limit', { body: JSON.stringify({ ...base, llm_response: 'a'.repeat(LIMIT - 200) }), contentType: json }],
    ['string over the limit', { body: JSON.stringify({ ...base, llm_response: 'a'.repeat(LIMIT + 10) }), contentType: json }],
    ['invalid UTF-8', { body: invalidUtf8, contentType: json }],
    ['lone surrogates', { body: '{"original_query":"\\ud800\\udfff\\ud800","llm_provider":"p","llm_model":"m","llm_response":"\\udc00"}', contentType: json }],
    ['__proto__ top level', { body: `{"__proto__":{"polluted":"yes"},${JSON.stringify(base).slice(1)}`, contentType: json }],
    ['constructor.prototype', { body: `{"constructor":{"prototype":{"polluted":"yes"}},${JSON.stringify(base).slice(1)}`, contentType: json }],
    ['__proto__ nested', { body: JSON.stringify({ ...validInteraction('proto'), query_context: { a: 1 }, prompt_variables: { b: 2 } }).replace('{"a":1}', '{"__proto__":{"polluted":"yes"},"a":1}').replace('{"b":2}', '{"constructor":{"prototype":{"polluted":"yes"}}}'), contentType: json }],
    ['NaN-like numbers', { body: JSON.stringify({ ...base, prompt_tokens: 'NaN', latency_ms: 'Infinity', estimated_cost_usd: '-0' }), contentType: json }],
    ['1e999', { body: `{"prompt_tokens":1e999,${JSON.stringify(base).slice(1)}`, contentType: json }],
    ['wrong types', { body: JSON.stringify({ original_query: 1, llm_provider: [], llm_model: {}, llm_response: null, interaction_id: true, query: 5, variables: 'x' }), contentType: json }],
    ['hostile ids', { body: JSON.stringify({ ...base, interaction_id: '../../etc/passwd', tenant_id: '__proto__', decision_id: 'a/b' }), contentType: json }],
    ['no token', { body: JSON.stringify(base), contentType: json, token: false }],
    ['GET', { body: '', method: 'GET' }],
    ['PUT', { body: JSON.stringify(base), method: 'PUT', contentType: json }],
    ['unknown path', { body: JSON.stringify(base), contentType: json, path: '/nope/../../x' }],
  ];
}

describe('fuzzing every endpoint and consumer', () => {
  beforeAll(async () => {
    stack = await startReliabilityStack({ only: present.map((f) => f.entryPoint) });
    const config = loadConfig(stack.env);
    for (const role of ['service', 'viewer', 'admin'] as const) tokens[role] = await mintDevToken(config, { tenantId: tenant, role });
    ps = new PubSub({ projectId: stack.projectId });
  });
  afterAll(async () => {
    if (known.length) console.log(`known open fuzz findings (${known.length}):\n${known.join('\n')}`);
    if (problems.length) console.log(`fuzz problems:\n${problems.join('\n')}`);
    await ps?.close();
    await stack?.stop();
  });

  it.each(httpTargets.map((f) => f.entryPoint))('HTTP %s: hostile inputs are 4xx with a clear JSON error, never 5xx', async (entryPoint) => {
    const found: string[] = [];
    for (const [what, s] of hostileBodies(entryPoint)) {
      const r = await send(entryPoint, s);
      const b = breach(entryPoint, r, what);
      if (b) found.push(b);
    }
    expect(unexpected(found)).toEqual([]);
  });

  it.each(httpTargets.map((f) => f.entryPoint))('HTTP %s: generated bodies never get a 5xx (fast-check)', async (entryPoint) => {
    const graphql = ROUTES[entryPoint]!.kind === 'graphql';
    const keys = graphql ? ['query', 'variables', 'operationName', 'extensions'] : ['interaction_id', 'original_query', 'llm_provider', 'llm_model', 'llm_response', 'query_context', 'prompt_tokens', 'tenant_id', 'user_email', 'trace_id', 'text', 'session_id', 'judges'];
    const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.json(), fc.array(fc.string(), { maxLength: 3 }), fc.constantFrom('__proto__', 'constructor', 'NaN', '{ __typename }', 'query { a { b { c { d } } } }'));
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom(...keys, '__proto__', 'constructor'), value).map((o) => ({ text: JSON.stringify(o), type: 'application/json' })),
      fc.json().map((text) => ({ text, type: 'application/json' })),
      fc.uint8Array({ maxLength: 200 }).map((b) => ({ text: Buffer.from(b).toString('latin1'), type: 'application/json' })),
      fc.string().map((text) => ({ text, type: fc.sample(fc.constantFrom('application/json', 'text/plain', 'application/graphql-response+json'), 1)[0]! })),
    );
    const found: string[] = [];
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r = await send(entryPoint, { body: b.text, contentType: b.type });
        const br = breach(entryPoint, r, `generated ${JSON.stringify(b.text.slice(0, 80))}`);
        // Breaches are collected (and judged against KNOWN below) rather than failing the property at once.
        if (br) found.push(br);
        return true;
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261122) },
    ).catch((e: Error) => found.push(e.message.split('\n').slice(0, 6).join(' ')));
    expect(unexpected(found)).toEqual([]);
  });

  it.each(consumers.map((f) => [f.entryPoint, f.trigger!] as const))('Pub/Sub %s: poison messages are acknowledged and dead-lettered', async (entryPoint, topic) => {
    const fn = FUNCTIONS.find((f) => f.entryPoint === entryPoint)!;
    const url = `http://127.0.0.1:${fn.port + stack.portOffset}${pushPath(stack.projectId, topic)}`;
    const subName = `fuzz-${entryPoint}-${Date.now()}`;
    const seen = new Set<string>();
    await ps.topic(deadLetterTopic(topic)).createSubscription(subName);
    const sub = ps.subscription(subName);
    sub.on('message', (m: Message) => {
      try {
        seen.add((JSON.parse(m.data.toString()) as { message_id?: string }).message_id ?? '');
      } catch {
        /* ignore */
      }
      m.ack();
    });
    const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
    // Poison payloads in a well-formed envelope: acknowledged (2xx) and copied to the dead-letter topic. A tick
    // consumer's schema accepts any object, so only non-objects are poison there.
    const tick = topic.endsWith('-ticks');
    const poison: [string, string][] = [
      ['not JSON', b64('{"a":')],
      ['invalid UTF-8', b64(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
      ['array', b64('[1,2]')],
      ['number', b64('7')],
      ['deep 10k', b64(deep(10_000, '[', ']'))],
      ['over 1 MB', b64('"' + 'a'.repeat(LIMIT + 10) + '"')],
      ...(tick
        ? []
        : ([
            ['wrong types', b64(JSON.stringify({ tenant_id: 5, audit_id: [], original_query: {}, llm_response: null }))],
            ['__proto__', b64('{"__proto__":{"polluted":"yes"},"tenant_id":"t"}')],
            ['constructor.prototype', b64('{"constructor":{"prototype":{"polluted":"yes"}}}')],
          ] as [string, string][])),
    ];
    const found: string[] = [];
    const ids: string[] = [];
    for (const [what, data] of poison) {
      const messageId = `fuzz-${entryPoint}-${ids.length}-${Date.now()}`;
      ids.push(messageId);
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: { data, messageId, attributes: { trace_id: 'x' } }, subscription: `projects/${stack.projectId}/subscriptions/fuzz` }),
      });
      await res.arrayBuffer();
      if (res.status < 200 || res.status >= 300) found.push(`${entryPoint} ${what}: ${res.status} (a poison message must be acknowledged)`);
    }
    // Envelopes Pub/Sub never sends are refused with a 400 (a nack); odd but well-formed ones are acknowledged.
    const broken: [string, string, 400 | 204][] = [
      ['empty body', '', 400],
      ['not JSON', '{"message":', 400],
      ['no message', '{"subscription":"x"}', 400],
      ['wrong types', JSON.stringify({ message: { data: 5, messageId: {}, attributes: [] }, subscription: 7 }), 400],
      ['empty data', JSON.stringify({ message: { data: '', messageId: 'e1' }, subscription: 's' }), 204],
      ['data not base64', JSON.stringify({ message: { data: '%%%not-base64%%%', messageId: 'e2' }, subscription: 's' }), 204],
      // The body parser drops the `__proto__` key, so this is an ordinary (poison) message: acknowledged.
      ['__proto__ attributes', '{"message":{"data":"e30=","messageId":"e3","attributes":{"__proto__":{"polluted":"yes"}}},"subscription":"s"}', 204],
    ];
    for (const [what, body, expected] of broken) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await res.text();
      if (res.status !== expected) found.push(`${entryPoint} broken envelope ${what}: ${res.status}, expected ${expected}`);
      if (expected === 400 && !/"VALIDATION_FAILED"/.test(text)) found.push(`${entryPoint} broken envelope ${what}: no clear error in ${text.slice(0, 120)}`);
    }
    const deadline = Date.now() + 20_000;
    while (ids.some((id) => !seen.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    await sub.close();
    const missing = ids.filter((id) => !seen.has(id)).map((id) => poison[ids.indexOf(id)]![0]);
    if (missing.length) found.push(`${entryPoint}: not on ${deadLetterTopic(topic)}: ${missing.join(', ')}`);
    expect(unexpected(found)).toEqual([]);
  });

  it('nothing was polluted: follow-up requests behave normally and stored data carries no injected property', async () => {
    const res = await fetch(`${stack.url('auditWriteHttp')}/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.service}` },
      body: JSON.stringify(validInteraction(`after-${Date.now()}`)),
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(['audit_id', 'bias_status', 'created', 'output_hash', 'prompt_hash', 'redaction_summary', 'tenant_id', 'trace_id']);
    expect(JSON.stringify(body)).not.toContain('polluted');
    const analysed = await fetch(`${stack.url('analyzeBiasHttp')}/analyze-bias`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.viewer}` },
      body: JSON.stringify({ llm_response: 'The chairman should hire a young, energetic salesman.', original_query: 'q', llm_model: 'm' }),
    });
    expect(analysed.status).toBe(200);
    expect(await analysed.text()).not.toContain('polluted');
    // A nested `__proto__` key may be kept as inert data, but it must not have become a prototype: the audit
    // stored after all the hostile requests carries no inherited `polluted` property anywhere.
    const { Firestore } = await import('@google-cloud/firestore');
    const db = new Firestore({ projectId: stack.projectId });
    const doc = await db.doc(`tenants/${tenant}/audits/${body.audit_id as string}`).get();
    expect(doc.exists).toBe(true);
    expect(JSON.stringify(doc.data())).not.toContain('polluted');
    const proto = await db.doc(`tenants/${tenant}/audits/fuzz-proto`).get();
    if (proto.exists) expect(Object.getPrototypeOf(proto.get('query_context'))).toBe(Object.prototype);
    await db.terminate();
  });
});
