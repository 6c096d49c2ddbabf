// Seeded synthetic council sessions for tests and the bias-report benchmark.
import { buildMetricRecords } from '../../shared/domain/council';
import { mulberry32 } from '../../shared/domain/stats';
import type { BiasMetricRecord, CouncilSessionInput } from '../../shared/schemas/council';

export const MODELS = ['openai/gpt-5', 'anthropic/claude-4', 'google/gemini-3', 'x-ai/grok-4', 'meta/llama-4'];
const HARSHNESS: Record<string, number> = { 'openai/gpt-5': -1.2, 'anthropic/claude-4': 0.2, 'google/gemini-3': 0.4, 'x-ai/grok-4': 0, 'meta/llama-4': 0.8 };

export interface GenOptions {
  seed: number;
  sessions: number;
  /** Models per session (4-5 typical). */
  models?: number;
  start?: Date;
  /** Spacing between sessions. */
  stepMs?: number;
  /** Score points per 1000 characters (length bias). */
  lengthEffect?: number;
  /** Score points added to the first position. */
  firstPositionBonus?: number;
  scales?: string[];
  consent?: number;
  includeSelfVotes?: boolean;
}

const SCALE_RANGE: Record<string, [number, number]> = { '1-10': [1, 10], '0-1': [0, 1], '1-5': [1, 5], '0-100': [0, 100] };

export function generateSessions(o: GenOptions): CouncilSessionInput[] {
  const rand = mulberry32(o.seed);
  const k = o.models ?? 5;
  const start = (o.start ?? new Date('2026-11-01T00:00:00Z')).getTime();
  const step = o.stepMs ?? 60_000;
  const scales = o.scales ?? ['1-10'];
  const out: CouncilSessionInput[] = [];
  for (let i = 0; i < o.sessions; i++) {
    const models = MODELS.slice(0, k);
    const order = [...models].sort(() => rand() - 0.5);
    const scale = scales[i % scales.length]!;
    const [lo, hi] = SCALE_RANGE[scale] ?? [1, 10];
    const stage1 = models.map((model) => ({ model, response: 'word '.repeat(20 + Math.floor(rand() * 400)) }));
    const quality = Object.fromEntries(models.map((m) => [m, rand() * 2 - 1]));
    const stage2: Record<string, Record<string, number>> = {};
    const labels: CouncilSessionInput['label_to_model'] = {};
    order.forEach((model, idx) => (labels[`Response ${String.fromCharCode(65 + idx)}`] = i % 2 ? model : { model, display_index: idx }));
    for (const reviewer of models) {
      stage2[reviewer] = {};
      for (const candidate of models) {
        if (candidate === reviewer && !o.includeSelfVotes) continue;
        const chars = stage1.find((s) => s.model === candidate)!.response.length;
        let s10 = 5.5 + quality[candidate]! + (o.lengthEffect ?? 1.5) * (chars / 1000) + HARSHNESS[reviewer]! + (rand() - 0.5) * 2;
        if (order.indexOf(candidate) === 0) s10 += o.firstPositionBonus ?? 0.5;
        if (candidate === reviewer) s10 += 1;
        const clamped = Math.min(10, Math.max(1, s10));
        const score = lo + ((clamped - 1) / 9) * (hi - lo);
        stage2[reviewer]![candidate] = Math.round(score * 100) / 100;
      }
    }
    out.push({
      session_id: `s-${o.seed}-${i}`,
      timestamp: new Date(start + i * step).toISOString(),
      stage1,
      stage2,
      label_to_model: labels,
      score_scale: scale,
      consent_level: o.consent ?? 1,
      query_metadata: { category: 'coding', token_count_bucket: '100-500', language: 'en' },
      council_config_version: i % 3 ? '0.3.0' : '0.4.0',
    });
  }
  return out;
}

export function generateRecords(o: GenOptions & { tenantId: string }): BiasMetricRecord[] {
  return generateSessions(o).flatMap((s) => buildMetricRecords(s, { tenantId: o.tenantId, timestamp: s.timestamp!, queryHash: null }).records);
}
