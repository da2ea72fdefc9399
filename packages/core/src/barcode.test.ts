import { describe, expect, it } from 'vitest';
import {
  BARCODE_CHECK_MESSAGE,
  BARCODE_DIGITS_MESSAGE,
  BARCODE_LENGTH_MESSAGE,
  barcodeProblem,
  barcodeSchema,
  gtinCheckDigit,
  gtinKind,
  isValidGtin,
  withCheckDigit,
} from './barcode.ts';

describe('GTIN check digits', () => {
  it('accepts published EAN-13, EAN-8, UPC-A and GTIN-14 codes', () => {
    expect(isValidGtin('4006381333931')).toBe(true); // EAN-13
    expect(isValidGtin('7894900011517')).toBe(true); // EAN-13, Brazilian prefix 789
    expect(isValidGtin('73513537')).toBe(true); // EAN-8
    expect(isValidGtin('96385074')).toBe(true); // EAN-8
    expect(isValidGtin('036000291452')).toBe(true); // UPC-A
    expect(isValidGtin('17894900011514')).toBe(true); // GTIN-14 (box of the EAN-13 above)
  });

  it('refuses a wrong check digit in every length', () => {
    expect(isValidGtin('4006381333932')).toBe(false);
    expect(isValidGtin('73513538')).toBe(false);
    expect(isValidGtin('036000291453')).toBe(false);
    expect(isValidGtin('17894900011515')).toBe(false);
  });

  it('computes the check digit of a body', () => {
    expect(gtinCheckDigit('400638133393')).toBe(1);
    expect(gtinCheckDigit('7351353')).toBe(7);
    expect(gtinCheckDigit('03600029145')).toBe(2);
    expect(withCheckDigit('789490001151')).toBe('7894900011517');
    expect(isValidGtin(withCheckDigit('200000000001'))).toBe(true);
  });

  it('ignores spaces and hyphens, refuses other lengths and letters', () => {
    expect(isValidGtin(' 4006381 333931 ')).toBe(true);
    expect(isValidGtin('400-6381-333931')).toBe(true);
    expect(isValidGtin('1234567')).toBe(false);
    expect(isValidGtin('40063813339310')).toBe(false);
    expect(isValidGtin('ABCDEFGH')).toBe(false);
    expect(gtinKind('4006381333931')).toBe('EAN-13');
    expect(gtinKind('123456789')).toBeUndefined();
  });

  it('explains the problem in Portuguese', () => {
    expect(barcodeProblem('789A')).toBe(BARCODE_DIGITS_MESSAGE);
    expect(barcodeProblem('123456789')).toBe(BARCODE_LENGTH_MESSAGE);
    expect(barcodeProblem('4006381333932')).toBe(BARCODE_CHECK_MESSAGE);
    expect(barcodeProblem('4006381333931')).toBeUndefined();
  });

  it('schema: empty means no barcode, a valid code comes out normalized', () => {
    expect(barcodeSchema.parse('')).toBeNull();
    expect(barcodeSchema.parse(null)).toBeNull();
    expect(barcodeSchema.parse(undefined)).toBeNull();
    expect(barcodeSchema.parse(' 4006381 333931')).toBe('4006381333931');
    const bad = barcodeSchema.safeParse('4006381333932');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe(BARCODE_CHECK_MESSAGE);
  });
});
