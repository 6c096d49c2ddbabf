// Session-cluster position statistics (decision 043) from SQL and from memory must agree; the shared
// expectStatsClose predates them, so the council adapter tests call this as well.
import { expect } from 'vitest';
import type { WindowStats } from '../../../shared/domain/council';

export function expectPositionClustersClose(a: WindowStats, b: WindowStats) {
  expect(a.positionClusters.sessions).toBe(b.positionClusters.sessions);
  expect(a.positionClusters.cross.map((c) => [c.p, c.q])).toEqual(b.positionClusters.cross.map((c) => [c.p, c.q]));
  a.positionClusters.cross.forEach((c, i) => expect(c.sum).toBeCloseTo(b.positionClusters.cross[i]!.sum, 9));
}
