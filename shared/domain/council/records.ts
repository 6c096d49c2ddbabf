// BiasMetricRecord construction (ADR-018 schema 1.1.0): one record per (session, model, reviewer).
import { createHash } from 'node:crypto';
import { SCHEMA_VERSION, type BiasMetricRecord, type CouncilSessionInput } from '../../schemas/council';
import { derivePositionMapping } from './position';
import { scoreCells } from './session-audit';
import { lengthChars, normalizeScore, wordCount } from './scores';

/** Stable id of a (tenant, session, model, reviewer) record: redeliveries write the same id. */
export const metricRecordId = (tenantId: string, sessionId: string, modelId: string, reviewerId: string) =>
  createHash('sha256').update(JSON.stringify([tenantId, sessionId, modelId, reviewerId])).digest('hex').slice(0, 40);

export interface RecordContext {
  tenantId: string;
  /** Session time (input.timestamp or the receive time). */
  timestamp: string;
  /** HMAC-SHA256 hex of the query, computed by the caller with the configured secret; used only at consent 4. */
  queryHash: string | null;
}

export interface BuiltRecords {
  records: BiasMetricRecord[];
  /** Scores whose candidate had no stage-1 response (length unknown), not persisted. */
  skipped: number;
}

/** Consent 0 stores nothing. query_hash only at consent 4. Raw query and response text never enter a record. */
export function buildMetricRecords(input: CouncilSessionInput, ctx: RecordContext): BuiltRecords {
  if (input.consent_level === 0) return { records: [], skipped: 0 };
  const positions = derivePositionMapping(input.label_to_model);
  const responses = new Map(input.stage1.map((r) => [r.model, r.response]));
  const records: BiasMetricRecord[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const cell of scoreCells(input)) {
    const response = responses.get(cell.model);
    if (response === undefined) {
      skipped++;
      continue;
    }
    const id = metricRecordId(ctx.tenantId, input.session_id, cell.model, cell.reviewer);
    if (seen.has(id)) continue; // a label and a model key for the same candidate: first one wins
    seen.add(id);
    records.push({
      schema_version: SCHEMA_VERSION,
      record_id: id,
      tenant_id: ctx.tenantId,
      session_id: input.session_id,
      timestamp: ctx.timestamp,
      consent_level: input.consent_level,
      query_metadata: input.query_metadata ?? null,
      reviewer_id: cell.reviewer,
      model_id: cell.model,
      position: positions[cell.model] ?? null,
      response_length_chars: lengthChars(response),
      response_length_words: wordCount(response),
      score_value: cell.score,
      score_scale: input.score_scale,
      score_normalized: normalizeScore(cell.score, input.score_scale),
      council_config_version: input.council_config_version,
      query_hash: input.consent_level === 4 ? ctx.queryHash : null,
    });
  }
  return { records, skipped };
}

/** Scores outside the declared scale are input errors (normalisation would silently exceed 0-1). */
export function scoresOutsideScale(input: CouncilSessionInput): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  for (const cell of scoreCells(input)) {
    const v = normalizeScore(cell.score, input.score_scale);
    if (v < 0 || v > 1) issues.push({ path: `stage2.${cell.reviewer}`, message: `score ${cell.score} is outside score_scale ${input.score_scale}` });
  }
  return issues;
}
