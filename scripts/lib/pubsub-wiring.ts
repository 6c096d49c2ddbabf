// Creates every topic, dead-letter topic and push subscription of shared/topology.ts on the emulator.
// Pub/Sub state is not exported by the emulator, so this runs at every start.
import { PubSub } from '@google-cloud/pubsub';
import { FUNCTIONS, OUTBOUND_TOPICS, TOPICS, deadLetterTopic, pushPath } from '../../shared/topology';

const ALREADY_EXISTS = 6;
const ignoreExists = (e: unknown) => {
  if ((e as { code?: number }).code !== ALREADY_EXISTS) throw e;
};

export interface WiringOptions {
  projectId: string;
  host?: string;
  maxDeliveryAttempts?: number;
  /** Added to every function port (test stacks beside `npm start`). */
  portOffset?: number;
}

export async function wirePubSub(opts: WiringOptions): Promise<{ topics: string[]; subscriptions: string[] }> {
  const ps = new PubSub({ projectId: opts.projectId });
  const topics: string[] = [];
  const subscriptions: string[] = [];
  const ensureTopic = async (name: string) => {
    await ps.createTopic(name).catch(ignoreExists);
    topics.push(name);
    return ps.topic(name);
  };
  const ensureSub = async (topic: string, name: string, options: Parameters<PubSub['createSubscription']>[2]) => {
    await ps.topic(topic).createSubscription(name, options).catch(ignoreExists);
    subscriptions.push(name);
  };
  for (const name of Object.values(TOPICS)) await ensureTopic(name);
  for (const fn of FUNCTIONS) {
    if (!fn.trigger) continue;
    const dlq = await ensureTopic(deadLetterTopic(fn.trigger));
    // Dead letters are kept on a pull subscription so they can be inspected and replayed.
    await ensureSub(dlq.name.split('/').pop()!, `${deadLetterTopic(fn.trigger)}-hold`, { messageRetentionDuration: { seconds: 7 * 86400 } });
    await ensureSub(fn.trigger, `${fn.name}-push`, {
      pushConfig: { pushEndpoint: `http://127.0.0.1:${fn.port + (opts.portOffset ?? 0)}${pushPath(opts.projectId, fn.trigger)}` },
      // Local handlers answer in milliseconds; a short deadline redelivers a push that hung without waiting a minute.
      ackDeadlineSeconds: 20,
      deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: opts.maxDeliveryAttempts ?? 5 },
      // No retryPolicy here, unlike production (terraform/modules/functions): the emulator stops redelivering a
      // nacked push for good once a backoff is set, and so never dead-letters it (decision 062).
    });
  }
  for (const topic of OUTBOUND_TOPICS) await ensureSub(topic, `${topic}-tap`, { messageRetentionDuration: { seconds: 86400 } });
  await ps.close();
  return { topics, subscriptions };
}
