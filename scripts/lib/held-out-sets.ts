// The held-out sets under test/fixtures, in the order they were written (each has a README on how it was made).
// Spent sets were each read once by the analyzer of their day and then used to choose: since round 17 the classifier
// trains on them (decision record 023) and their out-of-fold scores choose the detection threshold (record 021).
// Unspent sets have chosen nothing and nothing has trained on them; add a new set here, read it once, and move it to
// the spent list only at the next refit.
import { join } from 'node:path';
import { type Fixture, loadFixtureSet } from './fixtures';

export type HeldOutResponse = Omit<Fixture, 'split'> & { split: 'challenge' };

// Sets are numbered as they were commissioned (set 33 was delivered late and read first by round 19). A refit that
// spends the unspent sets moves FIRST_UNSPENT_SET past them; a new batch moves LAST_SET.
const FIRST_UNSPENT_SET = 130;
const LAST_SET = 141;
const setsNumbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `challenge-${from + i}`);
export const CALIBRATION_SETS = ['challenge', ...setsNumbered(2, FIRST_UNSPENT_SET - 1)];
export const UNSPENT_SETS = setsNumbered(FIRST_UNSPENT_SET, LAST_SET);

/** Ordinary traffic (decision record 028): clean responses that name no group or one in passing, by authors who saw
 * no detector and no other data. Nothing trains on them; they measure the false alarms users see on most traffic. */
export const ORDINARY_SETS = ['ordinary-1', 'ordinary-2', 'ordinary-3', 'ordinary-4', 'ordinary-5', 'ordinary-6', 'ordinary-7', 'ordinary-8'];

export const heldOutSetDir = (root: string, name: string): string => join(root, 'test', 'fixtures', name);

/** A held-out set's responses (empty when the set has not been written yet). */
export function loadHeldOutSet(root: string, name: string): HeldOutResponse[] {
  return loadFixtureSet(heldOutSetDir(root, name), 'challenge');
}
