import { describe, expect, it } from 'vitest';
import {
  centsToDecimalString,
  decimalInputToNumber,
  formatCents,
  maskDecimalInput,
  numberToDecimalInput,
  parseMoneyToCents,
} from './money.ts';

describe('formatCents', () => {
  it('formats reais with comma decimals, dot thousands and a plain space', () => {
    expect(formatCents(0)).toBe('R$ 0,00');
    expect(formatCents(5)).toBe('R$ 0,05');
    expect(formatCents(1234)).toBe('R$ 12,34');
    expect(formatCents(123456789)).toBe('R$ 1.234.567,89');
    expect(formatCents(-1050)).toBe('-R$ 10,50');
    expect(formatCents(1999)).not.toContain('\u00a0');
  });
});

describe('parseMoneyToCents', () => {
  it.each([
    ['12,34', 1234],
    ['12.34', 1234],
    ['12', 1200],
    ['12,5', 1250],
    ['12,', 1200],
    ['0,01', 1],
    ['0,1', 10],
    [' R$ 12,34 ', 1234],
    ['R$12,34', 1234],
    ['12,5 %', 1250],
    ['1.234,56', 123456],
    ['R$ 1.234.567,89', 123456789],
    ['1.234', 123400],
    ['1.234.567', 123456700],
  ])('%s -> %i cents', (text, cents) => expect(parseMoneyToCents(text)).toBe(cents));

  it('never drifts like float math does', () => {
    expect(parseMoneyToCents('0,29')).toBe(29);
    expect(parseMoneyToCents('1,15')).toBe(115);
    expect(parseMoneyToCents('4,35')).toBe(435);
    expect(parseMoneyToCents('1.005,57')).toBe(100557);
  });

  it.each([
    '',
    'abc',
    '12,345',
    '-1,00',
    '+1',
    '1,2,3',
    '12.34.56',
    ',50',
    '1.23,45',
    '12a',
    '99999999999999999999',
  ])('refuses %j with NaN', (text) => expect(parseMoneyToCents(text)).toBeNaN());
});

describe('centsToDecimalString', () => {
  it('prints cents as a dot decimal with 2 places', () => {
    expect(centsToDecimalString(0)).toBe('0.00');
    expect(centsToDecimalString(5)).toBe('0.05');
    expect(centsToDecimalString(1234)).toBe('12.34');
    expect(centsToDecimalString(-1234)).toBe('-12.34');
    expect(centsToDecimalString(-5)).toBe('-0.05');
    expect(parseMoneyToCents(centsToDecimalString(987654))).toBe(987654);
  });
});

describe('maskDecimalInput (digits and one comma, at most 2 decimals)', () => {
  it.each([
    ['', ''],
    ['1', '1'],
    ['12', '12'],
    ['12,', '12,'],
    ['12,3', '12,3'],
    ['12,34', '12,34'],
    ['12,345', '12,34'],
    ['12,3,4', '12,34'],
    [',5', '0,5'],
    [',', '0,'],
    ['abc', ''],
    ['R$ 12,50', '12,50'],
    ['1a2b,c3', '12,3'],
    ['-5', '5'],
    ['15%', '15'],
  ])('%j -> %j', (typed, shown) => expect(maskDecimalInput(typed)).toBe(shown));

  it('takes a keypad dot as the comma', () => {
    expect(maskDecimalInput('12.5')).toBe('12,5');
    expect(maskDecimalInput('12.')).toBe('12,');
    expect(maskDecimalInput('12,5.')).toBe('12,5');
  });

  it('drops thousands dots of a pasted Brazilian amount instead of cutting it', () => {
    expect(maskDecimalInput('1.234,56')).toBe('1234,56');
    expect(maskDecimalInput('R$ 1.234.567,89')).toBe('1234567,89');
    expect(maskDecimalInput('1.234.567')).toBe('1234567');
  });

  it('is idempotent', () => {
    for (const text of ['12,34', '0,5', '1234', '', '7,'])
      expect(maskDecimalInput(maskDecimalInput(text))).toBe(text);
  });
});

describe('decimal input <-> number', () => {
  it('turns the comma into a dot on save', () => {
    expect(decimalInputToNumber('12,34')).toBe(12.34);
    expect(decimalInputToNumber('12')).toBe(12);
    expect(decimalInputToNumber('12,')).toBe(12);
    expect(decimalInputToNumber('0,5')).toBe(0.5);
    expect(decimalInputToNumber('')).toBeNaN();
    expect(decimalInputToNumber('  ')).toBeNaN();
  });

  it('shows a number with a comma and at most 2 decimals', () => {
    expect(numberToDecimalInput(12.5)).toBe('12,5');
    expect(numberToDecimalInput(12)).toBe('12');
    expect(numberToDecimalInput(0.1 + 0.2)).toBe('0,3');
    expect(numberToDecimalInput(10.456)).toBe('10,46');
    expect(numberToDecimalInput(Number.NaN)).toBe('');
    expect(numberToDecimalInput(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('round-trips through the mask', () => {
    for (const value of [0, 0.5, 12.34, 99.9, 1000]) {
      expect(decimalInputToNumber(maskDecimalInput(numberToDecimalInput(value)))).toBe(value);
    }
  });
});
