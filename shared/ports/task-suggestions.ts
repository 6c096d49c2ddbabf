// Storage for FR-BIAS-4.6.4: per-audit signals (no hot counter document) and deduplicated task suggestions.
export interface TaskSignal {
  auditId: string;
  biasType: string;
  domain: string;
  kind: 'confirmed' | 'mitigated';
  at: string;
}

export interface TaskSuggestion {
  id: string;
  bias_type: string;
  domain: string;
  window_start: string;
  window_end: string;
  count: number;
  threshold: number;
  status: 'OPEN';
  created_at: string;
  trigger_audit_id: string;
  published_at: string | null;
}

export interface TaskSuggestionStore {
  /** Idempotent: one signal per audit and bias type. Returns false when it already existed. */
  recordSignal(tenantId: string, signal: TaskSignal): Promise<boolean>;
  /** Signals of one type in one domain with from <= at < to (an aggregation query, not a counter document). */
  countSignals(tenantId: string, biasType: string, domain: string, from: string, to: string): Promise<number>;
  /** create(): exactly one suggestion per id. Returns the stored suggestion and whether this call created it. */
  createSuggestion(tenantId: string, suggestion: TaskSuggestion): Promise<{ created: boolean; suggestion: TaskSuggestion }>;
  markPublished(tenantId: string, id: string, at: string): Promise<void>;
  list(tenantId: string, limit: number): Promise<TaskSuggestion[]>;
}
