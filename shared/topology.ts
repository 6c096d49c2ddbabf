// The one description of the system's wiring: functions, topics, subscriptions, schedules.
// Used by the local stack runner, the CLI and the Terraform consistency test.

export const TOPICS = {
  llmInteractions: 'llm-interactions',
  analysisRequests: 'bias-analysis-requests',
  auditStream: 'bias.audit.stream',
  reviews: 'bias-reviews',
  taskSuggestions: 'bias-task-suggestions',
  alerts: 'bias-alerts',
  councilSessions: 'council-sessions',
  retentionTicks: 'retention-ticks',
  aggregateTicks: 'aggregate-ticks',
  analysisSweepTicks: 'analysis-sweep-ticks',
} as const;
export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export const deadLetterTopic = (topic: string) => `${topic}-dlq`;

export interface FunctionTarget {
  /** Cloud Function name (one deployed function per target). */
  name: string;
  /** Source folder under functions/. */
  source: string;
  /** Exported entry point registered with functions-framework. */
  entryPoint: string;
  /** Every function is an HTTP function: consumers are Pub/Sub push endpoints that read the envelope themselves. */
  signature: 'http';
  /** Fixed local port under `npm start`. */
  port: number;
  /** Pub/Sub topic this consumer is subscribed to. */
  trigger?: TopicName;
}

export const FUNCTIONS: readonly FunctionTarget[] = [
  { name: 'audit-write-http', source: 'audit-write', entryPoint: 'auditWriteHttp', signature: 'http', port: 8081 },
  { name: 'audit-write-consumer', source: 'audit-write', entryPoint: 'auditWriteConsumer', signature: 'http', port: 8091, trigger: TOPICS.llmInteractions },
  { name: 'analyze-bias-http', source: 'analyze-bias', entryPoint: 'analyzeBiasHttp', signature: 'http', port: 8082 },
  { name: 'analyze-bias-worker', source: 'analyze-bias', entryPoint: 'analyzeBiasWorker', signature: 'http', port: 8092, trigger: TOPICS.analysisRequests },
  { name: 'analysis-sweeper', source: 'analyze-bias', entryPoint: 'analysisSweeper', signature: 'http', port: 8093, trigger: TOPICS.analysisSweepTicks },
  { name: 'graphql', source: 'graphql', entryPoint: 'graphql', signature: 'http', port: 8083 },
  { name: 'council-audit-http', source: 'council-audit', entryPoint: 'councilAuditHttp', signature: 'http', port: 8084 },
  { name: 'council-audit-consumer', source: 'council-audit', entryPoint: 'councilAuditConsumer', signature: 'http', port: 8094, trigger: TOPICS.councilSessions },
  { name: 'retention', source: 'retention', entryPoint: 'retentionJob', signature: 'http', port: 8095, trigger: TOPICS.retentionTicks },
  { name: 'aggregate', source: 'aggregate', entryPoint: 'aggregateJob', signature: 'http', port: 8096, trigger: TOPICS.aggregateTicks },
];

export interface Schedule {
  job: 'retention' | 'aggregate' | 'analysis-sweep';
  cron: string;
  timeZone: string;
  topic: TopicName;
  description: string;
}

export const SCHEDULES: readonly Schedule[] = [
  { job: 'retention', cron: '15 2 * * *', timeZone: 'Etc/UTC', topic: TOPICS.retentionTicks, description: 'Anonymise audits past the tenant policy, roll up and purge old ones' },
  { job: 'analysis-sweep', cron: '*/5 * * * *', timeZone: 'Etc/UTC', topic: TOPICS.analysisSweepTicks, description: 'Re-request analysis for audits left PENDING or BIAS_ANALYSIS_FAILED (lost or dead-lettered messages)' },
  { job: 'aggregate', cron: '0 * * * *', timeZone: 'Etc/UTC', topic: TOPICS.aggregateTicks, description: 'Pool council bias metrics, update reviewer profiles, trends and alerts' },
];

/** Topics that are published to but consumed outside the functions (dashboards, BigQuery sink, task tools). */
export const OUTBOUND_TOPICS: readonly TopicName[] = [TOPICS.auditStream, TOPICS.reviews, TOPICS.taskSuggestions, TOPICS.alerts];

/** Push endpoint path functions-framework needs to turn a raw push into a CloudEvent with its topic. */
export const pushPath = (projectId: string, topic: string) => `/projects/${projectId}/topics/${topic}`;

export const functionByEntryPoint = (entryPoint: string) => FUNCTIONS.find((f) => f.entryPoint === entryPoint);
