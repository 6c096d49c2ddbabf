export interface EventBus {
  /** Publishes one JSON message; resolves with the message id once the broker accepted it. */
  publish(topic: string, payload: unknown, attributes?: Record<string, string>): Promise<string>;
}
