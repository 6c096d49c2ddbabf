// The one Pub/Sub mapper. Malformed messages are acknowledged and copied to the dead-letter topic with a log
// entry; transient failures throw so Pub/Sub redelivers (and dead-letters after the subscription's limit).
import type { CloudEvent } from '@google-cloud/functions-framework';
import { z } from 'zod';
import { isAppError } from '../errors';
import type { Logger } from '../logging';
import type { EventBus } from '../ports/event-bus';
import { toFieldIssues } from '../schemas/common';
import { deadLetterTopic } from '../topology';
import { jsonHazard } from './json-body';

export interface PubSubPush {
  message?: { data?: string; attributes?: Record<string, string>; messageId?: string; publishTime?: string };
  subscription?: string;
}

export interface MessageContext {
  messageId: string;
  attributes: Record<string, string>;
  log: Logger;
}

const MAX_MESSAGE_BYTES = 1_048_576;

export function pubsubConsumer<S extends z.ZodType>(opts: {
  topic: string;
  schema: S;
  bus: EventBus;
  log: Logger;
  handle: (payload: z.infer<S>, ctx: MessageContext) => Promise<void>;
}) {
  return async (ce: CloudEvent<PubSubPush>): Promise<void> => {
    const message = ce.data?.message ?? {};
    const messageId = message.messageId ?? ce.id ?? 'unknown';
    const attributes = message.attributes ?? {};
    const log = opts.log.child({ messageId, topic: opts.topic, traceId: attributes.trace_id });
    const reject = async (reason: string, issues: unknown = undefined) => {
      log.warn('malformed message dead-lettered', { reason, issues });
      await opts.bus.publish(deadLetterTopic(opts.topic), { reason, issues, original: message.data ?? null, message_id: messageId }, {
        reason: reason.slice(0, 200),
        source_topic: opts.topic,
      });
    };

    const raw = message.data ? Buffer.from(message.data, 'base64') : Buffer.alloc(0);
    if (raw.length === 0) return reject('empty message data');
    if (raw.length > MAX_MESSAGE_BYTES) return reject(`message is ${raw.length} bytes; the limit is ${MAX_MESSAGE_BYTES}`);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(raw);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return reject('data is not valid JSON');
    }
    const hazard = jsonHazard(json);
    if (hazard) return reject(`data ${hazard}`);
    const parsed = opts.schema.safeParse(json);
    if (!parsed.success) return reject('payload failed validation', toFieldIssues(parsed.error));

    try {
      await opts.handle(parsed.data, { messageId, attributes, log });
    } catch (e) {
      if (isAppError(e) && (e.code === 'VALIDATION_FAILED' || e.code === 'FORBIDDEN' || e.code === 'CONFLICT' || e.code === 'NOT_FOUND')) {
        return reject(e.message, e.issues);
      }
      log.warn('message processing failed; will be redelivered', { code: isAppError(e) ? e.code : 'INTERNAL' });
      throw e;
    }
  };
}
