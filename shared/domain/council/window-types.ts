// Shapes of the window statistics (window.ts) and of their inputs; a separate module so the WebAssembly path
// (window-kernel.ts) and window.ts can share them without importing each other.
import type { BivariateMoments, ClusterCross, Moments } from '../stats';

export interface WindowQuery {
  /** Null only for single-tenant sources such as a local JSONL file. */
  tenantId: string | null;
  now: Date;
  /** Keep records with timestamp ≥ now − days; null = no time limit. */
  days: number | null;
  /** Keep the most recent N sessions (by first record time, ties by session id descending); null = all. */
  maxSessions: number | null;
  modelId: string | null;
  configVersion: string | null;
}

export interface SessionStat {
  session_id: string;
  /** Epoch ms of the session's first and last record. */
  first_ms: number;
  last_ms: number;
  /** (response_length_chars, score_normalized) moments over the session's peer (non-self) records. */
  xy: BivariateMoments;
}

export interface WindowStats {
  /** Sessions with at least one peer record, ordered by first_ms then session_id. */
  sessions: SessionStat[];
  reviewers: { reviewer_id: string; moments: Moments }[];
  positions: { position: number; moments: Moments }[];
  /** Moments of (self score − mean peer score of that model in that session), normalised scale. */
  selfVotes: Moments;
  /**
   * Session-cluster residual cross-products of the per-position peer score sums (decision 043): for positions
   * p ≤ q, Σ_g e_gp·e_gq with e_gp = (sum of session g's scores at p) − (its count at p)·(mean score at p).
   * `sessions` counts the sessions with at least one positioned peer record.
   */
  positionClusters: { sessions: number; cross: ClusterCross[] };
}

/** The fields of a stored record the statistics read. */
export interface MetricRow {
  tenant_id?: string | null;
  session_id: string;
  timestamp: string;
  reviewer_id: string;
  model_id: string;
  position: number | null;
  response_length_chars: number;
  score_normalized: number;
  council_config_version: string;
}
