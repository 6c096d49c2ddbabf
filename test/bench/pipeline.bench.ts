// npm run bench:pipeline — sustained interactions/s and publish → bias.audit.stream latency on the local stack.
// Two phases: latency at an offered rate below capacity, then saturation throughput from a burst.
// Baseline in the same run: a bare Pub/Sub publish → pull round trip on the same emulator.
// The emulator pushes at most two requests at a time per subscription (docs/decisions/003), so local throughput is
// bounded by 2 / handler latency per stage; production push subscriptions scale out.
//   npm run bench:pipeline -- --latency-count 100 --rate 5 --burst 600
import { parseArgs } from 'node:util';
import { PubSub, type Message } from '@google-cloud/pubsub';
import { freeOffset } from '../../scripts/lib/emulators';
import { startStack } from '../../scripts/lib/stack';
import { FUNCTIONS, TOPICS } from '../../shared/topology';
import { interactionPayload } from '../support/interactions';

const { values } = parseArgs({ options: { 'latency-count': { type: 'string', default: '100' }, rate: { type: 'string', default: '5' }, burst: { type: 'string', default: '600' } } });
const latencyCount = Number(values['latency-count']);
const rate = Number(values.rate);
const burst = Number(values.burst);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const stack = await startStack({
  portOffset: await freeOffset(FUNCTIONS.map((f) => f.port)),
  importData: false,
  only: ['auditWriteConsumer', 'analyzeBiasWorker'],
  log: (l) => console.error(`[stack] ${l}`),
  env: { LOG_LEVEL: 'WARNING' },
});
try {
  const pubsub = new PubSub({ projectId: stack.projectId });

  // Baseline: bare emulator round trip with a trivial message.
  const [probeTopic] = await pubsub.createTopic(`bench-probe-${Date.now()}`);
  const [probeSub] = await probeTopic.createSubscription(`${probeTopic.name.split('/').pop()}-sub`);
  const baseline: number[] = [];
  const baselineSent = new Map<string, number>();
  probeSub.on('message', (m: Message) => {
    const t = baselineSent.get(m.data.toString());
    if (t) baseline.push(performance.now() - t);
    m.ack();
  });
  for (let i = 0; i < 200; i++) {
    baselineSent.set(String(i), performance.now());
    await probeTopic.publishMessage({ data: Buffer.from(String(i)) });
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 1500));
  await probeSub.close();

  // Warm-up, so cold start (detector loading, gRPC channels) is not in the figures.
  const tenant = `bench-${Date.now()}`;
  const stream = pubsub.topic(TOPICS.auditStream);
  const [sub] = await stream.createSubscription(`bench-stream-${Date.now()}`);
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let firstSend = 0;
  let lastReceive = 0;
  sub.on('message', (m: Message) => {
    const id = m.attributes.audit_id ?? '';
    const t = sentAt.get(id);
    if (t !== undefined && m.attributes.tenant_id === tenant) {
      latencies.push(performance.now() - t);
      sentAt.delete(id);
      lastReceive = performance.now();
    }
    m.ack();
  });
  const topic = pubsub.topic(TOPICS.llmInteractions, { batching: { maxMessages: 1, maxMilliseconds: 0 } });
  for (let i = 0; i < 20; i++) await topic.publishMessage({ json: interactionPayload(i, { tenant_id: `${tenant}-warm`, interaction_id: `w-${i}` }) });
  await new Promise((r) => setTimeout(r, 3000));

  const topic2 = topic;
  async function phase(prefix: string, n: number, perSecond: number) {
    latencies.length = 0;
    const interval = perSecond > 0 ? 1000 / perSecond : 0;
    firstSend = performance.now();
    for (let i = 0; i < n; i++) {
      const wait = firstSend + i * interval - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const id = `${prefix}-${i}`;
      sentAt.set(id, performance.now());
      void topic2.publishMessage({ json: interactionPayload(i, { tenant_id: tenant, interaction_id: id }) });
    }
    const deadline = performance.now() + 300_000;
    while (latencies.length < n && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const seconds = (lastReceive - firstSend) / 1000;
    return {
      completed: latencies.length,
      per_s: Math.round((latencies.length / seconds) * 10) / 10,
      p50: Math.round(pct(latencies, 50)),
      p95: Math.round(pct(latencies, 95)),
    };
  }
  const light = await phase('lat', latencyCount, rate);
  const saturated = await phase('burst', burst, 0);
  await sub.close();

  const result = {
    latency_phase: { interactions: latencyCount, offered_per_s: rate, completed: light.completed, publish_to_stream_ms: { p50: light.p50, p95: light.p95 } },
    saturation_phase: { interactions: burst, completed: saturated.completed, sustained_per_s: saturated.per_s },
    baseline_pubsub_roundtrip_ms: { p50: Math.round(pct(baseline, 50)), p95: Math.round(pct(baseline, 95)) },
    ratio_latency_p50_vs_baseline: Math.round((light.p50 / pct(baseline, 50)) * 10) / 10,
    load_average: (await import('node:os')).loadavg().map((x) => Math.round(x * 10) / 10),
  };
  console.log(JSON.stringify(result, null, 2));
  await pubsub.close();
} finally {
  await stack.stop();
}
