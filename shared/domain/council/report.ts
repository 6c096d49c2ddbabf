// Pooled cross-session report (ADR-018) from window sufficient statistics. Definitions: docs/decisions/040.
import type { BiasReportJson, ConfidenceTier } from '../../schemas/council';
import {
  clusterBootstrapCorrelation,
  clusterEqualityTest,
  clusterMeanIntervals,
  combineAllBivariate,
  correlationPValue,
  fisherInterval,
  momentsOf,
  pearsonFromMoments,
  populationVariance,
  sampleSd,
  studentTQuantile,
  zScore,
  type Moments,
} from '../stats';
import type { WindowQuery, WindowStats } from './window';
import { totalMoments } from './window';

export interface ReportOptions {
  generatedAt: Date;
  tenantId: string | null;
  query: WindowQuery;
  lengthThreshold: number;
  bootstrapResamples: number;
  bootstrapSeed: number;
  /** Width of each trend window in days (windows step back from the report window's end). */
  trendDays: number;
  maxTrendPoints: number;
  /** Session-mean |z| above this is an anomaly (ADR-018: 2.5). */
  anomalyZ: number;
}

export const DEFAULT_REPORT_OPTIONS = {
  lengthThreshold: 0.3,
  bootstrapResamples: 1000,
  bootstrapSeed: 20251217,
  trendDays: 7,
  maxTrendPoints: 12,
  anomalyZ: 2.5,
} as const;

/** Session draws per report the bootstrap may spend (resamples × sessions); see docs/decisions/040. */
export const BOOTSTRAP_DRAW_BUDGET = 20_000_000;
/** Configured resamples, reduced (never below 200) only when resamples × sessions exceeds the budget. */
export const bootstrapResamplesFor = (configured: number, sessions: number) =>
  Math.min(configured, Math.max(200, Math.floor(BOOTSTRAP_DRAW_BUDGET / Math.max(1, sessions))));

export function confidenceTier(sessions: number): ConfidenceTier {
  if (sessions < 10) return 'insufficient';
  if (sessions < 20) return 'preliminary';
  if (sessions < 50) return 'moderate';
  return 'high';
}

/** Two-sided t interval for a mean: mean ± t(0.975, n−1)·s/√n (sample SD). */
export function meanInterval(m: Moments, level = 0.95): { lower: number; upper: number } | null {
  const sd = sampleSd(m);
  if (sd === null) return null;
  const half = studentTQuantile(1 - (1 - level) / 2, m.n - 1) * (sd / Math.sqrt(m.n));
  return { lower: m.mean - half, upper: m.mean + half };
}

const iso = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString());

export function buildBiasReport(stats: WindowStats, opts: ReportOptions): BiasReportJson {
  const sessions = stats.sessions;
  const tier = confidenceTier(sessions.length);
  const total = totalMoments(stats);

  // Pooled length-score correlation over all (chars, normalised score) pairs; Fisher CI treats pairs as independent,
  // the session-cluster bootstrap does not.
  const r = pearsonFromMoments(total);
  const p = r === null ? null : correlationPValue(r, total.n);
  const fisher = r === null ? null : fisherInterval(r, total.n);
  const resamples = bootstrapResamplesFor(opts.bootstrapResamples, sessions.length);
  const boot = r === null ? null : clusterBootstrapCorrelation(sessions.map((s) => s.xy), { resamples, seed: opts.bootstrapSeed });
  const bootExcludesZero = boot === null ? true : boot.lower > 0 || boot.upper < 0;
  const lengthDetected =
    tier !== 'insufficient' && r !== null && p !== null && Math.abs(r) > opts.lengthThreshold && p < 0.05 && bootExcludesZero;

  // Position: per-position means with session-cluster-robust t CIs (G − 1 df), population variance of the position
  // means, and the equality test as a cluster-robust Wald F (Hotelling T² reference); docs/decisions/043.
  const clusterInput = {
    keys: stats.positions.map((p) => p.position),
    means: stats.positions.map((p) => p.moments.mean),
    counts: stats.positions.map((p) => p.moments.n),
    clusters: stats.positionClusters.sessions,
    cross: stats.positionClusters.cross,
  };
  const positionCis = clusterMeanIntervals(clusterInput);
  const byPosition = stats.positions.map(({ position, moments }, i) => {
    const ci = positionCis[i];
    return { position, mean: moments.mean, n: moments.n, sd: sampleSd(moments), ci_lower: ci?.lower ?? null, ci_upper: ci?.upper ?? null };
  });
  const posMeans = momentsOf(byPosition.map((b) => b.mean));
  const posVariance = byPosition.length >= 2 ? populationVariance(posMeans) : null;
  const positionTest = clusterEqualityTest(clusterInput);
  const f = positionTest?.f ?? null;
  const fp = positionTest?.p ?? null;
  const maxDiff = byPosition.length >= 2 ? Math.max(...byPosition.map((b) => b.mean)) - Math.min(...byPosition.map((b) => b.mean)) : null;
  const positionDetected = tier !== 'insufficient' && fp !== null && fp < 0.05 && maxDiff !== null && maxDiff > 0.05;

  // Reviewer profiles: mean, sample SD, count; harshness z relative to the other reviewers' means (leave-one-out,
  // sample SD); negative = harsher than the others.
  const reviewers = stats.reviewers.map(({ reviewer_id, moments }) => {
    const others = stats.reviewers.filter((o) => o.reviewer_id !== reviewer_id).map((o) => o.moments.mean);
    const om = momentsOf(others);
    const z = others.length >= 2 ? zScore(moments.mean, om.mean, sampleSd(om)) : null;
    const classification: 'harsh' | 'generous' | 'typical' | 'unrated' = z === null ? 'unrated' : z <= -1 ? 'harsh' : z >= 1 ? 'generous' : 'typical';
    return { reviewer_id, mean: moments.mean, std: sampleSd(moments), count: moments.n, harshness_z: z, classification };
  });

  // Anomalies: session mean score z against the mean and sample SD of all session means.
  const sessionMeans = momentsOf(sessions.map((s) => s.xy.meanY));
  const sdMeans = sessions.length >= 3 ? sampleSd(sessionMeans) : null;
  const anomalies = sessions.flatMap((s) => {
    const z = zScore(s.xy.meanY, sessionMeans.mean, sdMeans);
    return z !== null && Math.abs(z) > opts.anomalyZ
      ? [{ session_id: s.session_id, timestamp: new Date(s.first_ms).toISOString(), mean: s.xy.meanY, z, records: s.xy.n }]
      : [];
  });

  // Trends: consecutive windows of trendDays stepping back from the window end.
  const trends: BiasReportJson['trends'] = [];
  if (sessions.length) {
    const end = sessions.reduce((m, s) => Math.max(m, s.last_ms), -Infinity);
    const width = opts.trendDays * 86_400_000;
    const start = sessions.reduce((m, s) => Math.min(m, s.first_ms), Infinity);
    for (let i = 0; i < opts.maxTrendPoints; i++) {
      const hi = end - i * width;
      const lo = hi - width;
      if (hi < start) break;
      const inBucket = sessions.filter((s) => s.first_ms > lo && s.first_ms <= hi);
      const m = combineAllBivariate(inBucket.map((s) => s.xy));
      trends.unshift({
        start: new Date(lo).toISOString(),
        end: new Date(hi).toISOString(),
        sessions: inBucket.length,
        records: m.n,
        r: pearsonFromMoments(m),
        mean_score: m.n ? m.meanY : null,
      });
    }
  }

  const selfCi = meanInterval(stats.selfVotes);
  const first = sessions.length ? sessions.reduce((m, s) => Math.min(m, s.first_ms), Infinity) : null;
  const last = sessions.length ? sessions.reduce((m, s) => Math.max(m, s.last_ms), -Infinity) : null;
  return {
    generated_at: opts.generatedAt.toISOString(),
    tenant_id: opts.tenantId,
    window: {
      start: iso(first),
      end: iso(last),
      sessions: sessions.length,
      records: total.n,
      max_sessions: opts.query.maxSessions,
      days: opts.query.days,
      model_id: opts.query.modelId,
      council_config_version: opts.query.configVersion,
    },
    confidence_tier: tier,
    score_unit: 'normalized_0_1',
    length_unit: 'characters',
    length_correlation: {
      r,
      p_value: p,
      ci_lower: fisher?.lower ?? null,
      ci_upper: fisher?.upper ?? null,
      n: total.n,
      bootstrap_ci_lower: boot?.lower ?? null,
      bootstrap_ci_upper: boot?.upper ?? null,
      bootstrap_resamples: resamples,
      bootstrap_seed: opts.bootstrapSeed,
      detected: lengthDetected,
    },
    position_bias: { by_position: byPosition, variance: posVariance, f_statistic: f, p_value: fp, max_difference: maxDiff, detected: positionDetected },
    reviewers,
    self_votes: {
      count: stats.selfVotes.n,
      inflation: stats.selfVotes.n ? stats.selfVotes.mean : null,
      ci_lower: selfCi?.lower ?? null,
      ci_upper: selfCi?.upper ?? null,
    },
    anomalies,
    trends,
  };
}

/** z-normalised scores for the analytics "calibrated view" only; live council votes are never altered (ADR-018). */
export function normalizeScoresForAnalytics(
  rawScores: Record<string, number>,
  profiles: readonly { reviewer_id: string; mean: number; std: number | null }[],
): Record<string, number | null> {
  const byId = new Map(profiles.map((p) => [p.reviewer_id, p]));
  const out: Record<string, number | null> = {};
  for (const [reviewer, score] of Object.entries(rawScores)) {
    const p = byId.get(reviewer);
    out[reviewer] = p ? zScore(score, p.mean, p.std) : null;
  }
  return out;
}

export interface BiasAlert {
  alert_id_parts: string[];
  kind: 'length_bias' | 'position_bias' | 'anomaly' | 'harsh_reviewer' | 'generous_reviewer';
  subject: string;
  detail: Record<string, unknown>;
}

/** Alerts a report raises; the caller deduplicates them per report window. */
export function reportAlerts(report: BiasReportJson): BiasAlert[] {
  const w = [report.window.start ?? '', report.window.end ?? ''];
  const alerts: BiasAlert[] = [];
  if (report.length_correlation.detected) {
    alerts.push({ alert_id_parts: ['length_bias', ...w], kind: 'length_bias', subject: 'length_correlation', detail: { ...report.length_correlation } });
  }
  if (report.position_bias.detected) {
    const { by_position: _omit, ...rest } = report.position_bias;
    alerts.push({ alert_id_parts: ['position_bias', ...w], kind: 'position_bias', subject: 'position', detail: rest });
  }
  for (const a of report.anomalies) alerts.push({ alert_id_parts: ['anomaly', a.session_id], kind: 'anomaly', subject: a.session_id, detail: a });
  if (report.confidence_tier !== 'insufficient') {
    for (const r of report.reviewers) {
      if (r.classification === 'harsh' || r.classification === 'generous') {
        alerts.push({ alert_id_parts: [`${r.classification}_reviewer`, r.reviewer_id, ...w], kind: `${r.classification}_reviewer`, subject: r.reviewer_id, detail: r });
      }
    }
  }
  return alerts;
}
