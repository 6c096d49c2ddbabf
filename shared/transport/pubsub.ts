// The one Pub/Sub mapper. Malformed messages are acknowledged and copied to the dead-letter topic with a log
// entry; transient failures throw so Pub/Sub redelivers (and dead-letters after the subscription's limit).
// Consumers are plain HTTP push endpoints: we read the push envelope ourselves rather than through
// functions-framework's CloudEvent conversion, which answers 500 to an envelope it cannot convert.
import type { Request, Response } from '@google-cloud/functions-framework';
import { z } from 'zod';
import { isAppError, validationFailed } from '../errors';
import type { Logger } from '../logging';
import type { EventBus } from '../ports/event-bus';
import { toFieldIssues } from '../schemas/common';
import { deadLetterTopic } from '../topology';
import { sendError } from './http';
import { bodyParseError, jsonHazard } from './json-body';

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
  return async (push: PubSubPush): Promise<void> => {
    const message = push.message ?? {};
    const messageId = message.messageId ?? 'unknown';
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

/**
 * The shape Pub/Sub push always sends. Only the envelope is checked here; what is inside `data` is the
 * consumer's business (poison content is acknowledged and dead-lettered there, not refused here).
 */
const PushEnvelope = z.object({
  message: z.object({
    data: z.string().optional(),
    attributes: z.record(z.string(), z.string()).optional(),
    messageId: z.string().optional(),
    message_id: z.string().optional(),
    publishTime: z.string().optional(),
  }),
  subscription: z.string().optional(),
});

/**
 * The HTTP push endpoint around a consumer: 204 acknowledges; a malformed envelope is a 400 naming the field (a
 * real push never sends one); a failure is the mapped error status, which Pub/Sub treats as a nack.
 */
export function pubsubPushEndpoint(consume: (push: PubSubPush) => Promise<void>, log: Logger) {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      if (req.method !== 'POST') {
        res.set('Allow', 'POST');
        res.status(405).json({ error: { code: 'METHOD_NOT_ALLOWED', message: 'Pub/Sub push uses POST' } });
        return;
      }
      const parseError = bodyParseError(req);
      if (parseError) throw validationFailed([{ path: '', message: `push envelope: ${parseError}` }]);
      const body: unknown = req.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw validationFailed([{ path: '', message: 'push envelope must be a JSON object (Content-Type: application/json)' }]);
      }
      const hazard = jsonHazard(body);
      if (hazard) throw validationFailed([{ path: '', message: `push envelope ${hazard}` }]);
      const envelope = PushEnvelope.safeParse(body);
      if (!envelope.success) throw validationFailed(toFieldIssues(envelope.error));
      const { message_id, ...message } = envelope.data.message;
      const messageId = message.messageId ?? message_id;
      await consume({ message: { ...message, ...(messageId ? { messageId } : {}) }, ...(envelope.data.subscription ? { subscription: envelope.data.subscription } : {}) });
      res.status(204).end();
    } catch (e) {
      sendError(res, e, log);
    }
  };
}
