import { expect } from 'vitest';
import type { WindowStats } from '../../shared/domain/council';

export function expectStatsClose(a: WindowStats, b: WindowStats) {
  expect(a.sessions.map((s) => s.session_id)).toEqual(b.sessions.map((s) => s.session_id));
  a.sessions.forEach((s, i) => {
    const o = b.sessions[i]!;
    expect(s.first_ms).toBe(o.first_ms);
    expect(s.last_ms).toBe(o.last_ms);
    expect(s.xy.n).toBe(o.xy.n);
    for (const k of ['meanX', 'meanY', 'm2x', 'm2y', 'cxy'] as const) expect(s.xy[k]).toBeCloseTo(o.xy[k], 6);
  });
  expect(a.reviewers.map((r) => [r.reviewer_id, r.moments.n])).toEqual(b.reviewers.map((r) => [r.reviewer_id, r.moments.n]));
  expect(a.positions.map((r) => [r.position, r.moments.n])).toEqual(b.positions.map((r) => [r.position, r.moments.n]));
  a.positions.forEach((p, i) => expect(p.moments.m2).toBeCloseTo(b.positions[i]!.moments.m2, 9));
  expect(a.selfVotes.n).toBe(b.selfVotes.n);
  expect(a.selfVotes.mean).toBeCloseTo(b.selfVotes.mean, 10);
  expect(a.selfVotes.m2).toBeCloseTo(b.selfVotes.m2, 10);
}

