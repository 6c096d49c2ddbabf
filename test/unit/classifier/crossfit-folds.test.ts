import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CROSSFIT_FOLDS, fixtureKey, foldKey, foldOf, heldOutSetKey, parseFoldBy, toxigenKey } from '../../../scripts/lib/crossfit';
import { CALIBRATION_SETS, loadHeldOutSet, UNSPENT_SETS } from '../../../scripts/lib/held-out-sets';

describe('cross-fitting folds (decision records 015, 016)', () => {
  it('holds out whole authors: ids in one block of 200 share a fold key, other blocks do not', () => {
    expect(foldKey(fixtureKey('hiring-3001'))).toBe(foldKey(fixtureKey('support-3120')));
    expect(foldKey(fixtureKey('hiring-3001'))).not.toBe(foldKey(fixtureKey('hiring-3201')));
    expect(foldKey(fixtureKey('health-007'))).toBe(foldKey(fixtureKey('lending-026')));
  });

  it('leaves public keys alone and draws item by item on request', () => {
    const k = toxigenKey('Some statement');
    expect(foldKey(k)).toBe(k);
    expect(foldKey(fixtureKey('hiring-3001'), 'item')).toBe(fixtureKey('hiring-3001'));
    expect(() => parseFoldBy('batch')).toThrow(/author or item/);
  });

  it('puts every fold in reach of several authors of the committed fixtures', () => {
    const ids = readFileSync('test/fixtures/enterprise/responses.jsonl', 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
    const perFold = new Map<number, Set<string>>();
    for (const id of ids) {
      const key = foldKey(fixtureKey(id));
      const f = foldOf(key, CROSSFIT_FOLDS);
      perFold.set(f, (perFold.get(f) ?? new Set()).add(key));
    }
    expect(perFold.size).toBe(CROSSFIT_FOLDS);
    for (const authors of perFold.values()) expect(authors.size).toBeGreaterThanOrEqual(2);
  });

  it('holds out a spent held-out set whole: its set is its author (decision record 023)', () => {
    expect(foldKey(heldOutSetKey('challenge-5', 'hiring-5001'))).toBe(foldKey(heldOutSetKey('challenge-5', 'support-5098')));
    expect(foldKey(heldOutSetKey('challenge-5', 'hiring-5001'))).not.toBe(foldKey(heldOutSetKey('challenge-6', 'hiring-5001')));
    // the same id in a fixture author block and in a set never share a fold key
    expect(foldKey(heldOutSetKey('challenge-5', 'hiring-3001'))).not.toBe(foldKey(fixtureKey('hiring-3001')));
    expect(foldKey(heldOutSetKey('challenge-5', 'hiring-5001'), 'item')).toBe(heldOutSetKey('challenge-5', 'hiring-5001'));
  });

  it('keeps spent and unspent sets apart, and every listed set is on disk with both labels', () => {
    expect(CALIBRATION_SETS.filter((s) => UNSPENT_SETS.includes(s))).toEqual([]);
    for (const name of [...CALIBRATION_SETS, ...UNSPENT_SETS]) {
      const rows = loadHeldOutSet('.', name);
      expect(rows.length, name).toBeGreaterThanOrEqual(60);
      expect(new Set(rows.map((r) => r.label)), name).toEqual(new Set(['biased', 'unbiased']));
    }
  });

  it('lists every held-out set in the repository, so none is silently left out of training or of the reads', () => {
    const onDisk = readdirSync(join('test', 'fixtures')).filter((name) => /^challenge(-\d+)?$/.test(name));
    expect(onDisk.sort()).toEqual([...CALIBRATION_SETS, ...UNSPENT_SETS].sort());
  });
});
