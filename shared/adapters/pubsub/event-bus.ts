import { PubSub, type Topic } from '@google-cloud/pubsub';
import type { Config } from '../../config';
import { transient } from '../../errors';
import type { EventBus } from '../../ports/event-bus';

let shared: PubSub | undefined;
export const pubsubFor = (config: Config) => (shared ??= new PubSub({ projectId: config.GCLOUD_PROJECT }));

export class PubSubEventBus implements EventBus {
  private readonly topics = new Map<string, Topic>();
  constructor(private readonly client: PubSub) {}

  private topic(name: string): Topic {
    let t = this.topics.get(name);
    if (!t) {
      // Small batches keep publish latency low; the pipeline publishes one message per interaction.
      t = this.client.topic(name, { batching: { maxMessages: 100, maxMilliseconds: 5 } });
      this.topics.set(name, t);
    }
    return t;
  }

  async publish(topic: string, payload: unknown, attributes: Record<string, string> = {}): Promise<string> {
    try {
      return await this.topic(topic).publishMessage({ data: Buffer.from(JSON.stringify(payload)), attributes });
    } catch (e) {
      throw transient(`publish to ${topic} failed`, e);
    }
  }
}
