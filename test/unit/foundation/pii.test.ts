import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { luhnValid, maskJson, maskText } from '../../../shared/domain/pii';

describe('PII masking', () => {
  it.each([
    ['Write to jane.doe+hr@example.co.uk today', 'Write to [EMAIL] today', 'email'],
    ['Card 4111 1111 1111 1111 was charged', 'Card [CARD] was charged', 'card'],
    ['Card 4111-1111-1111-1111.', 'Card [CARD].', 'card'],
    ['SSN 123-45-6789 on file', 'SSN [NATIONAL_ID] on file', 'national_id'],
    ['NI number AB 12 34 56 C', 'NI number [NATIONAL_ID]', 'national_id'],
    ['Call +1 (415) 555-0132 now', 'Call [PHONE] now', 'phone'],
    ['Call 020 7946 0958 now', 'Call [PHONE] now', 'phone'],
    ['From 192.168.10.254 at noon', 'From [IP] at noon', 'ip'],
    ['From 2001:db8::8a2e:370:7334 at noon', 'From [IP] at noon', 'ip'],
  ])('masks %s', (input, expected, kind) => {
    const { text, counts } = maskText(input);
    expect(text).toBe(expected);
    expect(counts).toEqual({ [kind]: 1 });
  });

  it.each([
    'Card 4111 1111 1111 1112 fails the Luhn check',
    'Revenue grew to 1,250,000 in 2024-03-15 filings',
    'Meeting at 10:30:45 in room 12',
    'Order 12345 shipped; version 1.2.3',
    'The ratio was 3.5 to 1',
  ])('leaves non-PII alone: %s', (input) => {
    expect(maskText(input).text).toBe(input);
  });

  it('implements the Luhn check', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true);
  });

  it('masks strings anywhere inside JSON values and counts them', () => {
    const counts = {};
    expect(maskJson({ a: ['x@y.io', { b: 'card 4111111111111111' }], n: 5 }, counts)).toEqual({ a: ['[EMAIL]', { b: 'card [CARD]' }], n: 5 });
    expect(counts).toEqual({ email: 1, card: 1 });
  });

  it('never leaves an e-mail address behind and never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.stringMatching(/^[a-z]{1,10}@[a-z]{1,10}\.(com|org|de)$/), fc.string({ maxLength: 200 }), (pre, email, post) => {
        const { text } = maskText(`${pre} ${email} ${post}`);
        expect(text).not.toContain(email);
      }),
      { numRuns: 300 },
    );
  });
});
