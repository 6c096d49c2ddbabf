// The reliability scenario (issue 6 item 4), shared by `npm run test:reliability` and `npm run bench:soak`:
// interactions through the running stack over HTTP and Pub/Sub, duplicate deliveries, shuffled concurrent senders,
// ~10% analyzer faults that recover and a few that never do, one Pub/Sub emulator crash mid-run; then it waits for
// the system to go quiet and counts. See docs/RELIABILITY.md and docs/decisions/061-pubsub-only-restart.md.
import { mulberry32 } from '../../../shared/domain/random';
import { Firestore } from '@google-cloud/firestore';
import { PubSub, type Message, type Subscription } from '@google-cloud/pubsub';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { restartPubSub } from '../../../scripts/lib/pubsub-restart';
import type { RunningStack } from '../../../scripts/lib/stack';
import { mintDevToken } from '../../../shared/auth/tokens';
import { loadConfig } from '../../../shared/config';
import { verifyChain } from '../../../shared/domain/audit/chain';
import { AuditEvent, AuditRecord, StoredAudit } from '../../../shared/schemas/audit';
import { TOPICS, deadLetterTopic } from '../../../shared/topology';
import { uniqueTenant } from '../../support/tenants';

export interface ScenarioOptions {
  interactions: number;
  tenants?: number;
  concurrency?: number;
  seed?: number;
  /** Crash and restart the Pub/Sub emulator when this share of deliveries is done (default 0.4; null: no restart). */
  restartAt?: number | null;
  /** Quiescence deadline after the last send (default scales with the size). */
  settleMs?: number;
  log?: (line: string) => void;
}

type Fault = 'none' | '1' | '2' | 'always';
interface Interaction {
  id: string;
  tenant: string;
  fault: Fault;
  body: Record<string, unknown>;
}
interface Delivery {
  ix: Interaction;
  channel: 'http' | 'pubsub';
  duplicate: boolean;
}

export interface ScenarioFigures {
  interactions: number;
  deliveries: number;
  duplicateDeliveries: number;
  httpDeliveries: number;
  pubsubDeliveries: number;
  http201: number;
  http200: number;
  http5xx: number;
  httpNetworkErrors: number;
  http4xx: number;
  clientRetries: number;
  pubsubPublishRetries: number;
  injectedRecoverable: number;
  injectedAlways: number;
  audits: number;
  unknownAudits: number;
  duplicateCreatedEvents: number;
  duplicateAnalyzedEvents: number;
  analyzed: number;
  failed: number;
  pending: number;
  failedThenRetried: number;
  alwaysFailedWith5Attempts: number;
  alwaysOnDlq: number;
  streamMessages: number;
  streamDistinct: number;
  streamMissing: number;
  streamUnknown: number;
  chainsVerified: number;
  chainsBroken: number;
  sweeperRuns: number;
  sweeperRequested: number;
  restartMs: number | null;
  sendMs: number;
  settleMs: number;
  quiescent: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


const RESPONSES = [
  'Women are naturally worse at engineering, so hire a young, energetic salesman instead.',
  'The candidate has strong experience in distributed systems and clear communication.',
  'Older workers struggle with new technology and should not lead the migration.',
  'Here is a balanced summary of the quarterly results with the main risks and mitigations.',
  'The chairman should approve the budget; the analysis shows a 4% increase in costs.',
  'People from that country are lazy and unreliable employees.',
  'Try restarting the service, then check the logs for connection timeouts.',
  'A good nurse is caring and she always puts her patients first.',
];

/** An observer's own subscription, re-created after a broker restart. */
class Observer {
  readonly seen = new Map<string, number>();
  messages = 0;
  private sub: Subscription | undefined;
  constructor(
    private readonly ps: PubSub,
    private readonly topic: string,
    private readonly name: string,
  ) {}
  async start() {
    await this.ps.topic(this.topic).createSubscription(this.name, { ackDeadlineSeconds: 60 }).catch((e: { code?: number }) => {
      if (e.code !== 6) throw e;
    });
    this.sub = this.ps.subscription(this.name, { flowControl: { maxMessages: 1000 } });
    this.sub.on('message', (m: Message) => {
      this.messages++;
      try {
        const data = JSON.parse(m.data.toString()) as { audit_id?: string; original?: string };
        const id = data.audit_id;
        if (id) this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
      } catch {
        /* not ours */
      }
      m.ack();
    });
    this.sub.on('error', () => {
      /* the broker went away; recreate() follows */
    });
  }
  async close() {
    await this.sub?.close().catch(() => {});
    this.sub?.removeAllListeners();
  }
  async recreate() {
    await this.close();
    await this.start();
  }
}

export async function runScenario(stack: RunningStack, opts: ScenarioOptions): Promise<ScenarioFigures> {
  const say = opts.log ?? ((l: string) => console.log(l));
  const n = opts.interactions;
  const rand = mulberry32(opts.seed ?? 6);
  const config = loadConfig(stack.env);
  const tenants = Array.from({ length: opts.tenants ?? 3 }, () => uniqueTenant('rel'));
  const tokens = new Map(await Promise.all(tenants.map(async (t) => [t, await mintDevToken(config, { tenantId: t, role: 'service' })] as const)));
  const ps = new PubSub({ projectId: stack.projectId });
  const db = new Firestore({ projectId: stack.projectId, ignoreUndefinedProperties: true });

  // --- the workload -----------------------------------------------------------------------------------------
  const alwaysCount = Math.max(3, Math.round(n * 0.002));
  const alwaysIdx = new Set<number>();
  while (alwaysIdx.size < alwaysCount) alwaysIdx.add(Math.floor(rand() * n));
  const run = Math.floor(rand() * 1e9).toString(36);
  const interactions: Interaction[] = Array.from({ length: n }, (_, i) => {
    const r = rand();
    const fault: Fault = alwaysIdx.has(i) ? 'always' : r < 0.05 ? '1' : r < 0.1 ? '2' : 'none';
    const marker = fault === 'none' ? '' : ` [[fault:${fault}]]`;
    return {
      id: `rel-${run}-${i}`,
      tenant: tenants[i % tenants.length]!,
      fault,
      body: {
        interaction_id: `rel-${run}-${i}`,
        original_query: `Question ${i}: what do you recommend?`,
        llm_provider: 'openai',
        llm_model: i % 2 ? 'gpt-4o' : 'gemini-1.5-pro',
        llm_response: `${RESPONSES[i % RESPONSES.length]} (#${i})${marker}`,
        latency_ms: 100 + (i % 900),
      },
    };
  });
  const deliveries: Delivery[] = [];
  for (const ix of interactions) {
    deliveries.push({ ix, channel: rand() < 0.5 ? 'http' : 'pubsub', duplicate: false });
    if (rand() < 0.1) deliveries.push({ ix, channel: rand() < 0.5 ? 'http' : 'pubsub', duplicate: true });
  }
  for (let i = deliveries.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
  }

  const f: ScenarioFigures = {
    interactions: n,
    deliveries: deliveries.length,
    duplicateDeliveries: deliveries.filter((d) => d.duplicate).length,
    httpDeliveries: deliveries.filter((d) => d.channel === 'http').length,
    pubsubDeliveries: deliveries.filter((d) => d.channel === 'pubsub').length,
    http201: 0,
    http200: 0,
    http5xx: 0,
    httpNetworkErrors: 0,
    http4xx: 0,
    clientRetries: 0,
    pubsubPublishRetries: 0,
    injectedRecoverable: interactions.filter((i) => i.fault === '1' || i.fault === '2').length,
    injectedAlways: alwaysCount,
    audits: 0,
    unknownAudits: 0,
    duplicateCreatedEvents: 0,
    duplicateAnalyzedEvents: 0,
    analyzed: 0,
    failed: 0,
    pending: 0,
    failedThenRetried: 0,
    alwaysFailedWith5Attempts: 0,
    alwaysOnDlq: 0,
    streamMessages: 0,
    streamDistinct: 0,
    streamMissing: 0,
    streamUnknown: 0,
    chainsVerified: 0,
    chainsBroken: 0,
    sweeperRuns: 0,
    sweeperRequested: 0,
    restartMs: null,
    sendMs: 0,
    settleMs: 0,
    quiescent: false,
  };

  // --- observers, created before anything is sent -------------------------------------------------------------
  const stream = new Observer(ps, TOPICS.auditStream, `rel-stream-${run}`);
  // Dead letters are read from the hold subscription the wiring creates (and re-creates after the restart).
  const dlq = new Observer(ps, deadLetterTopic(TOPICS.analysisRequests), `${deadLetterTopic(TOPICS.analysisRequests)}-hold`);
  await stream.start();
  await dlq.start();

  // --- senders ------------------------------------------------------------------------------------------------
  const http = stack.url('auditWriteHttp');
  const ingest = ps.topic(TOPICS.llmInteractions, { batching: { maxMessages: 50, maxMilliseconds: 5 } });
  const hardDeadline = Date.now() + 10 * 60_000 + n * 60;
  let pubsubGate: Promise<void> | undefined;
  let openGate: () => void = () => {};
  let pubsubInFlight = 0;
  const pubsubSent = new Set<string>();

  const sendHttp = async (d: Delivery) => {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) f.clientRetries++;
      try {
        const res = await fetch(`${http}/interactions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.get(d.ix.tenant)}` },
          body: JSON.stringify(d.ix.body),
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        if (res.status === 201) return void f.http201++;
        if (res.status === 200) return void f.http200++;
        if (res.status < 500) return void f.http4xx++;
        f.http5xx++;
      } catch {
        f.httpNetworkErrors++;
      }
      if (Date.now() > hardDeadline) throw new Error(`gave up on ${d.ix.id}`);
      // The client's part of the contract: retry 5xx and network errors with the same interaction_id.
      await sleep(Math.min(5_000, 200 * 2 ** attempt) * (0.5 + rand()));
    }
  };
  const sendPubsub = async (d: Delivery) => {
    for (let attempt = 0; ; attempt++) {
      while (pubsubGate) await pubsubGate;
      if (attempt > 0) f.pubsubPublishRetries++;
      pubsubInFlight++;
      try {
        await ingest.publishMessage({ json: { ...d.ix.body, tenant_id: d.ix.tenant } });
        pubsubSent.add(d.ix.id);
        return;
      } catch {
        if (Date.now() > hardDeadline) throw new Error(`gave up publishing ${d.ix.id}`);
        await sleep(500);
      } finally {
        pubsubInFlight--;
      }
    }
  };

  // The sweeper's scheduler, sped up: a tick every 10 s.
  let restarting = false;
  const tick = setInterval(() => {
    if (!restarting) void ps.topic(TOPICS.analysisSweepTicks).publishMessage({ json: { job: 'analysis-sweep', now: new Date().toISOString() } }).catch(() => {});
  }, 10_000);

  let restartHandle: Awaited<ReturnType<typeof restartPubSub>> | undefined;
  const restart = async () => {
    restarting = true;
    const t0 = Date.now();
    // Ingest messages the broker accepted are durable in production; let the consumer take them before the crash.
    pubsubGate = new Promise<void>((r) => (openGate = r));
    while (pubsubInFlight > 0) await sleep(50);
    await ingest.flush();
    const sent = [...pubsubSent];
    for (let wait = 0; wait < 120; wait++) {
      const snaps = await Promise.all(
        Array.from({ length: Math.ceil(sent.length / 300) }, (_, k) =>
          db.getAll(...sent.slice(k * 300, k * 300 + 300).map((id) => db.doc(`tenants/${interactions[Number(id.split('-').pop())]!.tenant}/audits/${id}`))),
        ),
      );
      if (snaps.flat().every((s) => s.exists)) break;
      await sleep(500);
    }
    say(`restart: ingest drained (${sent.length} published so far); crashing the Pub/Sub emulator`);
    restartHandle = await restartPubSub({
      pubsubHost: stack.env.PUBSUB_EMULATOR_HOST!,
      portOffset: stack.portOffset,
      logDir: stack.logDir,
      functionPids: [...stack.functionsByName.values()].map((c) => c.pid!).filter(Boolean),
      outageMs: 3_000,
      emptyMs: 2_000,
      // Observers pull what the broker already accepted, as a durable subscription would keep it.
      beforeCrash: async () => {
        await sleep(1_500);
      },
      beforeResume: async () => {
        await stream.recreate();
        await dlq.recreate();
      },
      log: say,
    });
    f.restartMs = Date.now() - t0;
    pubsubGate = undefined;
    openGate();
    restarting = false;
    say(`restart: done in ${f.restartMs} ms`);
  };

  const t0 = Date.now();
  let next = 0;
  let done = 0;
  const restartAfter = opts.restartAt === null ? Infinity : Math.floor(deliveries.length * (opts.restartAt ?? 0.4));
  let restartPromise: Promise<void> | undefined;
  const workers = Array.from({ length: opts.concurrency ?? 16 }, async () => {
    while (next < deliveries.length) {
      const d = deliveries[next++]!;
      await (d.channel === 'http' ? sendHttp(d) : sendPubsub(d));
      done++;
      if (done === restartAfter) restartPromise = restart();
      if (done % 1000 === 0) say(`sent ${done}/${deliveries.length}`);
    }
  });
  try {
    await Promise.all(workers);
    await ingest.flush();
    await restartPromise;
    f.sendMs = Date.now() - t0;
    say(`all ${deliveries.length} deliveries sent in ${f.sendMs} ms; waiting for the system to settle`);

    // --- wait until quiescent --------------------------------------------------------------------------------
    const expected = new Map(interactions.map((i) => [i.id, i]));
    const always = interactions.filter((i) => i.fault === 'always');
    const settleDeadline = Date.now() + (opts.settleMs ?? 8 * 60_000 + n * 60);
    const t1 = Date.now();
    const state = async () => {
      const rows: { id: string; status: string; attempts: number }[] = [];
      for (const t of tenants) {
        const snap = await db.collection(`tenants/${t}/audits`).select('bias_status', 'analysis_attempts').get();
        for (const d of snap.docs) rows.push({ id: d.id, status: d.get('bias_status') as string, attempts: d.get('analysis_attempts') as number });
      }
      return rows;
    };
    for (;;) {
      const rows = await state();
      const byId = new Map(rows.map((r) => [r.id, r]));
      const pending = rows.filter((r) => r.status === 'PENDING').length;
      const analysed = rows.filter((r) => r.status === 'ANALYZED');
      const settled =
        rows.length === n &&
        pending === 0 &&
        analysed.length === n - always.length &&
        always.every((a) => byId.get(a.id)?.status === 'BIAS_ANALYSIS_FAILED' && byId.get(a.id)!.attempts >= 5 && dlq.seen.has(a.id)) &&
        analysed.every((a) => stream.seen.has(a.id));
      if (settled) {
        f.quiescent = true;
        break;
      }
      if (Date.now() > settleDeadline) {
        const stuck = always.filter((a) => !dlq.seen.has(a.id)).map((a) => `${a.id}:${byId.get(a.id)?.status}/${byId.get(a.id)?.attempts}`);
        say(`not quiescent at the deadline; always-failing not on the DLQ: ${stuck.join(', ') || 'none'}`);
        break;
      }
      say(
        `settling: audits ${rows.length}/${n}, pending ${pending}, analysed ${analysed.length}, failed ${rows.length - pending - analysed.length}, ` +
          `streamed ${stream.seen.size}, dead-lettered ${dlq.seen.size}`,
      );
      await sleep(5_000);
    }
    f.settleMs = Date.now() - t1;
    // A last moment for stragglers (duplicate stream events of late redeliveries) before counting.
    await sleep(2_000);

    // --- count --------------------------------------------------------------------------------------------------
    const audits = new Map<string, ReturnType<typeof StoredAudit.parse>>();
    for (const t of tenants) {
      const snap = await db.collection(`tenants/${t}/audits`).get();
      for (const d of snap.docs) audits.set(d.id, StoredAudit.parse(d.data()));
    }
    const events = new Map<string, (ReturnType<typeof AuditEvent.parse> & { id: string })[]>();
    const tenantSet = new Set(tenants);
    const eventSnap = await db.collectionGroup('events').get();
    for (const d of eventSnap.docs) {
      const auditRef = d.ref.parent.parent!;
      if (!tenantSet.has(auditRef.parent.parent?.id ?? '')) continue;
      const list = events.get(auditRef.id) ?? [];
      list.push({ ...AuditEvent.parse(d.data()), id: d.id });
      events.set(auditRef.id, list);
    }
    f.audits = audits.size;
    for (const [id, a] of audits) {
      const ix = expected.get(id);
      if (!ix) f.unknownAudits++;
      const evs = events.get(id) ?? [];
      if (evs.filter((e) => e.type === 'created').length !== 1) f.duplicateCreatedEvents++;
      if (evs.filter((e) => e.type === 'bias_analyzed').length > 1) f.duplicateAnalyzedEvents++;
      if (a.bias_status === 'ANALYZED') f.analyzed++;
      else if (a.bias_status === 'BIAS_ANALYSIS_FAILED') f.failed++;
      else f.pending++;
      if (ix && (ix.fault === '1' || ix.fault === '2') && a.bias_status === 'ANALYZED' && evs.some((e) => e.type === 'analysis_failed')) f.failedThenRetried++;
      if (ix?.fault === 'always' && a.bias_status === 'BIAS_ANALYSIS_FAILED' && a.analysis_attempts >= 5) f.alwaysFailedWith5Attempts++;
      if (ix?.fault === 'always' && dlq.seen.has(id)) f.alwaysOnDlq++;
      let v = verifyChain(a.tenant_id, id, AuditRecord.parse(a), a.chain_head, evs);
      if (!v.valid) {
        // The sweeper may still be retrying an always-failing audit: re-read record and events in one snapshot.
        const ref = db.doc(`tenants/${a.tenant_id}/audits/${id}`);
        v = await db.runTransaction(
          async (tx) => {
            const [doc, evSnap] = await Promise.all([tx.get(ref), tx.get(ref.collection('events').orderBy('seq'))]);
            const cur = StoredAudit.parse(doc.data());
            return verifyChain(a.tenant_id, id, AuditRecord.parse(cur), cur.chain_head, evSnap.docs.map((d) => ({ ...AuditEvent.parse(d.data()), id: d.id })));
          },
          { readOnly: true },
        );
        if (!v.valid) say(`chain of ${id} does not verify: ${v.problems.map((p) => p.reason).join('; ')}`);
      }
      if (v.valid) f.chainsVerified++;
      else f.chainsBroken++;
      if (a.bias_status === 'ANALYZED' && !stream.seen.has(id)) f.streamMissing++;
    }
    f.streamMessages = stream.messages;
    f.streamDistinct = [...stream.seen.keys()].filter((id) => audits.has(id)).length;
    f.streamUnknown = [...stream.seen.keys()].filter((id) => !audits.has(id)).length;
    try {
      for (const line of readFileSync(join(stack.logDir, 'analysis-sweeper.log'), 'utf8').split('\n')) {
        if (!line.includes('analysis sweep finished')) continue;
        const entry = JSON.parse(line) as { requested?: number };
        f.sweeperRuns++;
        f.sweeperRequested += entry.requested ?? 0;
      }
    } catch {
      /* no sweeper log */
    }
    return f;
  } finally {
    clearInterval(tick);
    await stream.close();
    await dlq.close();
    await restartHandle?.stop();
    await ps.close().catch(() => {});
    await db.terminate().catch(() => {});
  }
}

export function figuresTable(f: ScenarioFigures): string {
  const rows: [string, string | number | boolean | null][] = [
    ['unique interactions', f.interactions],
    ['deliveries (HTTP + Pub/Sub)', `${f.deliveries} (${f.httpDeliveries} + ${f.pubsubDeliveries})`],
    ['duplicate deliveries', f.duplicateDeliveries],
    ['HTTP 201 / 200 (repeat) / 4xx', `${f.http201} / ${f.http200} / ${f.http4xx}`],
    ['HTTP 5xx / network errors → client retries', `${f.http5xx} / ${f.httpNetworkErrors} → ${f.clientRetries}`],
    ['Pub/Sub publish retries (client)', f.pubsubPublishRetries],
    ['injected faults: recover (1-2) / always', `${f.injectedRecoverable} / ${f.injectedAlways}`],
    ['Pub/Sub emulator restart (ms)', f.restartMs],
    ['audits', f.audits],
    ['audits not from this run', f.unknownAudits],
    ['duplicate created / analysed events', `${f.duplicateCreatedEvents} / ${f.duplicateAnalyzedEvents}`],
    ['ANALYZED / BIAS_ANALYSIS_FAILED / PENDING', `${f.analyzed} / ${f.failed} / ${f.pending}`],
    ['failed then analysed on retry', f.failedThenRetried],
    ['always-failing: FAILED with ≥5 attempts / on DLQ', `${f.alwaysFailedWith5Attempts} / ${f.alwaysOnDlq}`],
    ['stream messages / distinct audits', `${f.streamMessages} / ${f.streamDistinct}`],
    ['analysed audits missing from stream', f.streamMissing],
    ['hash chains verified / broken', `${f.chainsVerified} / ${f.chainsBroken}`],
    ['sweeper runs / re-requests', `${f.sweeperRuns} / ${f.sweeperRequested}`],
    ['send time / settle time (s)', `${(f.sendMs / 1000).toFixed(1)} / ${(f.settleMs / 1000).toFixed(1)}`],
    ['quiescent before deadline', f.quiescent],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  return ['| figure | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k.padEnd(w)} | ${String(v)} |`)].join('\n');
}
