// The held-out sets under test/fixtures, in the order they were written (each has a README on how it was made).
// Spent sets were each read once by the analyzer of their day and then used to choose: since round 17 the classifier
// trains on them (decision record 023) and their out-of-fold scores choose the detection threshold (record 021).
// Unspent sets have chosen nothing and nothing has trained on them; add a new set here, read it once, and move it to
// the spent list only at the next refit.
import { join } from 'node:path';
import { type Fixture, loadFixtureSet } from './fixtures';

export type HeldOutResponse = Omit<Fixture, 'split'> & { split: 'challenge' };

// Set 33 was commissioned with sets 32-37 but delivered after round 19 was trained, so round 19 read it first; since
// round 25 every set up to 99 is spent.
export const CALIBRATION_SETS = ['challenge', ...Array.from({ length: 98 }, (_, i) => `challenge-${i + 2}`)];
export const UNSPENT_SETS = Array.from({ length: 8 }, (_, i) => `challenge-${i + 100}`);

export const heldOutSetDir = (root: string, name: string): string => join(root, 'test', 'fixtures', name);

/** A held-out set's responses (empty when the set has not been written yet). */
export function loadHeldOutSet(root: string, name: string): HeldOutResponse[] {
  return loadFixtureSet(heldOutSetDir(root, name), 'challenge');
}
