// FR-BIAS-4.6.4: confirmed biases and mitigations of one type in one domain, counted per window; at the threshold
// one task suggestion is created (deduplicated by id) and published to bias-task-suggestions.
import { domainOf, reachesThreshold, suggestionId, windowOf } from '../domain/task-suggestions';
import type { Logger } from '../logging';
import type { Clock } from '../ports/clock';
import type { EventBus } from '../ports/event-bus';
import type { TaskSuggestion, TaskSuggestionStore } from '../ports/task-suggestions';
import type { StoredAudit } from '../schemas/audit';
import type { TaskSuggestionEvent } from '../schemas/review';
import { TOPICS } from '../topology';

export interface TaskSuggestionDeps {
  tasks: TaskSuggestionStore;
  bus: EventBus;
  clock: Clock;
  log: Logger;
  taskSuggestionThreshold: number;
  taskSuggestionWindowDays: number;
}

/** Records that `audit` showed these bias types (confirmed by a reviewer, or mitigated) and suggests a task when due. */
export async function noteBiasSignal(
  deps: TaskSuggestionDeps,
  audit: StoredAudit,
  kind: 'confirmed' | 'mitigated',
  biasTypes: readonly string[],
): Promise<TaskSuggestion[]> {
  const at = deps.clock.now().toISOString();
  const domain = domainOf(audit);
  const window = windowOf(at, deps.taskSuggestionWindowDays);
  const out: TaskSuggestion[] = [];
  for (const biasType of new Set(biasTypes)) {
    await deps.tasks.recordSignal(audit.tenant_id, { auditId: audit.id, biasType, domain, kind, at });
    const count = await deps.tasks.countSignals(audit.tenant_id, biasType, domain, window.start, window.end);
    if (!reachesThreshold(count, deps.taskSuggestionThreshold)) continue;
    const id = suggestionId(biasType, domain, window.start);
    const { created, suggestion } = await deps.tasks.createSuggestion(audit.tenant_id, {
      id,
      bias_type: biasType,
      domain,
      window_start: window.start,
      window_end: window.end,
      count,
      threshold: deps.taskSuggestionThreshold,
      status: 'OPEN',
      created_at: at,
      trigger_audit_id: audit.id,
      published_at: null,
    });
    // A crash between create and publish is repaired by the next signal in the same window.
    if (created || !suggestion.published_at) {
      const event: TaskSuggestionEvent = {
        tenant_id: audit.tenant_id,
        suggestion_id: id,
        bias_type: biasType,
        domain,
        count: suggestion.count,
        threshold: suggestion.threshold,
        window_start: suggestion.window_start,
        window_end: suggestion.window_end,
        title: `Address recurring "${biasType}" bias in ${domain} (${suggestion.count} cases since ${suggestion.window_start.slice(0, 10)})`,
        trigger_audit_id: suggestion.trigger_audit_id,
      };
      await deps.bus.publish(TOPICS.taskSuggestions, event, { tenant_id: audit.tenant_id, suggestion_id: id });
      await deps.tasks.markPublished(audit.tenant_id, id, deps.clock.now().toISOString());
      deps.log.info('task suggestion created', { tenantId: audit.tenant_id, suggestionId: id, count });
    }
    if (created) out.push(suggestion);
  }
  return out;
}

/** For the analyzer path: a bias update that carries a mitigation counts as a signal. */
export async function noteMitigation(deps: TaskSuggestionDeps, audit: StoredAudit): Promise<TaskSuggestion[]> {
  const type = (audit.mitigation_action as { type?: unknown } | null)?.type;
  if (!audit.bias_detected || audit.bias_type.length === 0 || !type || type === 'NONE') return [];
  return noteBiasSignal(deps, audit, 'mitigated', audit.bias_type);
}
