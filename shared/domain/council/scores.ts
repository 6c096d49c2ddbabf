import { parseScoreScale } from '../../schemas/council';

/** Maps a score on "lo-hi" onto 0-1; pooled statistics across sessions with different scales use this. */
export function normalizeScore(value: number, scale: string): number {
  const [lo, hi] = parseScoreScale(scale);
  if (!(hi > lo)) throw new RangeError(`invalid score scale ${scale}`);
  return (value - lo) / (hi - lo);
}

export const lengthChars = (text: string) => [...text].length; // code points, not UTF-16 units
export const wordCount = (text: string) => (text.trim() ? text.trim().split(/\s+/u).length : 0);
