import { getTestServer } from '@google-cloud/functions-framework/testing';
import { http as registerHttp } from '@google-cloud/functions-framework';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { transient, validationFailed } from '../../../shared/errors';
import { createLogger } from '../../../shared/logging';
import type { EventBus } from '../../../shared/ports/event-bus';
import { httpRoutes, parseBody } from '../../../shared/transport/http';
import { pubsubConsumer, pubsubPushEndpoint, type PubSubPush } from '../../../shared/transport/pubsub';

const lines: string[] = [];
const log = createLogger({ projectId: 'p', component: 'test', write: (l) => lines.push(l) });

function fakeBus() {
  const sent: { topic: string; payload: unknown; attributes?: Record<string, string> }[] = [];
  const bus: EventBus = { publish: async (topic, payload, attributes) => (sent.push({ topic, payload, ...(attributes ? { attributes } : {}) }), String(sent.length)) };
  return { bus, sent };
}

const event = (data: string | undefined): PubSubPush => ({ message: { ...(data !== undefined ? { data } : {}), messageId: 'm1', attributes: {} }, subscription: 'sub' });
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');

describe('pubsubConsumer', () => {
  const Schema = z.object({ id: z.string() }).strict();

  it('acknowledges and dead-letters empty, non-JSON and invalid messages without calling the handler', async () => {
    const { bus, sent } = fakeBus();
    let calls = 0;
    const consume = pubsubConsumer({ topic: 'jobs', schema: Schema, bus, log, handle: async () => void calls++ });
    await consume(event(undefined));
    await consume(event(b64('{not json')));
    await consume(event(b64({ id: 5 })));
    await consume(event(b64({ id: 'x', __proto__: { polluted: true } })));
    expect(calls).toBe(1);
    expect(sent.map((s) => s.topic)).toEqual(['jobs-dlq', 'jobs-dlq', 'jobs-dlq']);
    expect(sent.map((s) => (s.payload as { reason: string }).reason)).toEqual(['empty message data', 'data is not valid JSON', 'payload failed validation']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rethrows transient failures so Pub/Sub redelivers, and dead-letters validation failures from the use case', async () => {
    const { bus, sent } = fakeBus();
    const failing = pubsubConsumer({ topic: 'jobs', schema: Schema, bus, log, handle: async () => { throw transient('db down'); } });
    await expect(failing(event(b64({ id: 'a' })))).rejects.toMatchObject({ code: 'TRANSIENT' });
    const invalid = pubsubConsumer({ topic: 'jobs', schema: Schema, bus, log, handle: async () => { throw validationFailed([{ path: 'id', message: 'unknown' }]); } });
    await invalid(event(b64({ id: 'a' })));
    expect(sent).toHaveLength(1);
  });
});

describe('httpRoutes', () => {
  registerHttp('transportProbe', httpRoutes(
    [
      { method: 'POST', path: '/things', handle: async (req, res) => void res.status(201).json(parseBody(z.object({ name: z.string().min(1) }).strict(), req)) },
      { method: 'POST', path: '/boom', handle: async () => { throw new Error('secret internals'); } },
      { method: 'POST', path: '/later', handle: async () => { throw transient('firestore unavailable'); } },
    ],
    log,
    1024,
  ));
  const server = getTestServer('transportProbe');
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => void server.close());

  async function call(path: string, init: { method?: string; body?: string; type?: string }) {
    const res = await fetch(`${base}${path}`, { method: init.method ?? 'POST', headers: { 'content-type': init.type ?? 'application/json' }, ...(init.body !== undefined ? { body: init.body } : {}) });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string; issues: { path: string }[] } } };
  }

  it('maps invalid JSON, wrong types, unknown routes, wrong methods and oversized bodies to clear 4xx JSON', async () => {
    expect(await call('/things', { body: '{"name":' })).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/not valid JSON/) } } });
    expect(await call('/things', { body: '{"name": 3}' })).toMatchObject({ status: 400, body: { error: { issues: [{ path: 'name' }] } } });
    expect(await call('/things', { body: 'plain', type: 'text/plain' })).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
    expect(await call('/things', { body: JSON.stringify({ name: 'x'.repeat(2000) }) })).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
    expect((await call('/nowhere', { body: '{}' })).status).toBe(404);
    expect((await call('/things', { method: 'GET' })).status).toBe(405);
    expect(await call('/things', { body: '{"name":"ok"}' })).toMatchObject({ status: 201, body: { name: 'ok' } });
  });

  it('hides unexpected errors behind a generic 500 and maps transient ones to 503', async () => {
    const boom = await call('/boom', { body: '{}' });
    expect(boom).toEqual({ status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } });
    expect((await call('/later', { body: '{}' })).status).toBe(503);
  });
});

describe('pubsubPushEndpoint', () => {
  const Schema = z.object({ id: z.string() }).strict();
  const { bus, sent } = fakeBus();
  const handled: string[] = [];
  registerHttp('pushProbe', pubsubPushEndpoint(
    pubsubConsumer({
      topic: 'jobs',
      schema: Schema,
      bus,
      log,
      handle: async ({ id }) => {
        if (id === 'down') throw transient('firestore unavailable');
        handled.push(id);
      },
    }),
    log,
  ));
  const server = getTestServer('pushProbe');
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => void server.close());
  const push = async (body: string, method = 'POST') => {
    const res = await fetch(`${base}/projects/p/topics/jobs`, { method, headers: { 'content-type': 'application/json' }, ...(method === 'POST' ? { body } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as { error?: { code: string; message: string; issues?: { path: string }[] } }) : undefined };
  };
  const envelope = (data: unknown, messageId = 'm1') => JSON.stringify({ message: { data: b64(data), messageId, attributes: { trace_id: 't' } }, subscription: 'projects/p/subscriptions/s' });

  it('acknowledges a handled message with 204 and a poison one too, after dead-lettering it', async () => {
    expect(await push(envelope({ id: 'a' }))).toEqual({ status: 204, body: undefined });
    expect(handled).toEqual(['a']);
    expect((await push(envelope({ id: 7 }, 'm2'))).status).toBe(204);
    expect(sent.map((s) => [s.topic, (s.payload as { message_id: string }).message_id])).toEqual([['jobs-dlq', 'm2']]);
  });

  it('answers an envelope Pub/Sub would never send with a 400 naming the problem, never a 5xx', async () => {
    expect(await push('{"message":')).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED', issues: [{ path: '' }] } } });
    expect(await push('[1]')).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
    expect(await push('{"subscription":"s"}')).toMatchObject({ status: 400, body: { error: { issues: [{ path: 'message' }] } } });
    expect(await push(JSON.stringify({ message: { data: 5, messageId: {}, attributes: [] }, subscription: 7 }))).toMatchObject({
      status: 400,
      body: { error: { issues: expect.arrayContaining([expect.objectContaining({ path: 'message.data' })]) } },
    });
    expect((await push('', 'GET')).status).toBe(405);
    expect(handled).toEqual(['a']);
  });

  it('maps a transient failure to 503 so Pub/Sub redelivers', async () => {
    expect((await push(envelope({ id: 'down' }, 'm3'))).status).toBe(503);
  });
});
