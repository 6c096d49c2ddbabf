import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonHazard } from '../../../shared/transport/json-body';

const nest = (n: number) => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n)) as unknown;

describe('jsonHazard', () => {
  it('accepts ordinary JSON, including astral characters', () => {
    fc.assert(fc.property(fc.json({ depthSize: 'small' }), (text) => jsonHazard(JSON.parse(text)) === undefined || /nested/.test(jsonHazard(JSON.parse(text))!)));
    expect(jsonHazard({ text: 'emoji 😀 and ünïcode', list: [1, null, true, { k: 'v' }] })).toBeUndefined();
  });
  it('refuses nesting past the limit without overflowing the stack', () => {
    expect(jsonHazard(nest(MAX_JSON_DEPTH - 1))).toBeUndefined();
    expect(jsonHazard(nest(MAX_JSON_DEPTH + 1))).toMatch(/nested deeper than 64/);
    expect(jsonHazard(nest(10_000))).toMatch(/nested deeper/);
  });
  it('refuses lone surrogates in values and keys, and accepts pairs', () => {
    expect(jsonHazard({ a: '\ud800' })).toMatch(/not valid Unicode/);
    expect(jsonHazard({ a: 'x\udc00' })).toMatch(/not valid Unicode/);
    expect(jsonHazard({ ['\udbff']: 1 })).toMatch(/key/);
    expect(jsonHazard({ a: '\ud83d\ude00' })).toBeUndefined();
  });
});
