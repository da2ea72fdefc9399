import { describe, expect, it } from 'vitest';
import {
  dueDateOfFactor,
  factorOfDate,
  formatBoletoLine,
  makeBankBoletoLine,
  parseBoleto,
} from './boleto.ts';

// Real boletos published as test vectors (a Caixa boleto of R$ 214,03 due 2022-05-10 and a power bill
// of R$ 509,60), in both forms.
const CAIXA_BARCODE = '10499898100000214032006561000100040099726390';
const CAIXA_LINE = '10492006506100010004200997263900989810000021403';
const POWER_BARCODE = '83860000005096000190000008017823000034306271';
const POWER_LINE = '838600000050096000190009000801782309000343062712';

describe('parseBoleto', () => {
  it('reads a bank boleto linha digitável: amount, due date, bank and the barcode', () => {
    const result = parseBoleto('10492.00650 61000.100042 00997.263900 9 89810000021403', '2022-05-01');
    expect(result).toEqual({
      ok: true,
      boleto: {
        kind: 'bank',
        barcode: CAIXA_BARCODE,
        line: CAIXA_LINE,
        amountCents: 21403,
        dueDate: '2022-05-10',
        bank: '104',
      },
    });
  });

  it('reads the same boleto from its barcode and gives its linha', () => {
    const result = parseBoleto(CAIXA_BARCODE, '2022-05-01');
    expect(result.ok && result.boleto.line).toBe(CAIXA_LINE);
    expect(formatBoletoLine(CAIXA_LINE)).toBe('10492.00650 61000.100042 00997.263900 9 89810000021403');
  });

  it('refuses a typo by the field whose modulo 10 check digit fails', () => {
    const typo = `${CAIXA_LINE.slice(0, 12)}9${CAIXA_LINE.slice(13)}`; // field 2 changed
    expect(parseBoleto(typo, '2022-05-01')).toEqual({
      ok: false,
      message: 'O dígito verificador do campo 2 não confere: confira a digitação',
    });
  });

  it('refuses a barcode whose modulo 11 general check digit fails', () => {
    const bad = `${CAIXA_BARCODE.slice(0, 4)}7${CAIXA_BARCODE.slice(5)}`;
    expect(parseBoleto(bad, '2022-05-01')).toEqual({
      ok: false,
      message: 'O dígito verificador geral não confere: confira a digitação',
    });
    // The general digit in the linha (field 4) is checked too.
    const badLine = `${CAIXA_LINE.slice(0, 32)}1${CAIXA_LINE.slice(33)}`;
    expect(parseBoleto(badLine, '2022-05-01').ok).toBe(false);
  });

  it('reads an arrecadação (power bill) linha of 48 digits and its barcode', () => {
    const fromLine = parseBoleto(POWER_LINE, '2026-01-01');
    expect(fromLine).toEqual({
      ok: true,
      boleto: {
        kind: 'utility',
        barcode: POWER_BARCODE,
        line: POWER_LINE,
        amountCents: 50960,
        dueDate: null,
        bank: '3',
      },
    });
    const fromBarcode = parseBoleto(POWER_BARCODE, '2026-01-01');
    expect(fromBarcode.ok && fromBarcode.boleto.line).toBe(POWER_LINE);
    const typo = `${POWER_LINE.slice(0, 13)}1${POWER_LINE.slice(14)}`;
    expect(parseBoleto(typo, '2026-01-01')).toEqual({
      ok: false,
      message: 'O dígito verificador do campo 2 não confere: confira a digitação',
    });
  });

  it('says what lengths it takes', () => {
    expect(parseBoleto('1234', '2026-01-01')).toEqual({
      ok: false,
      message:
        'O código deve ter 44 dígitos (código de barras), 47 (linha digitável de boleto bancário) ou 48 (conta de consumo ou tributo)',
    });
  });
});

describe('due-date factor and the 2025 rollover', () => {
  it('reads factor 9999 as 2025-02-21 and 1000 as 2025-02-22 near 2025', () => {
    expect(dueDateOfFactor(9999, '2025-02-01')).toBe('2025-02-21');
    expect(dueDateOfFactor(1000, '2025-02-20')).toBe('2025-02-22');
    // The same 1000 read near 2000 is its first cycle's day.
    expect(dueDateOfFactor(1000, '2000-07-01')).toBe('2000-07-03');
    expect(dueDateOfFactor(0, '2025-02-20')).toBeNull();
  });

  it('round-trips dates of the second cycle', () => {
    expect(factorOfDate('2025-02-21')).toBe(9999);
    expect(factorOfDate('2025-02-22')).toBe(1000);
    expect(factorOfDate('2026-11-27')).toBe(1643);
    expect(dueDateOfFactor(1643, '2026-11-01')).toBe('2026-11-27');
  });

  it('builds a valid linha after the rollover that parses back to its amount and due date', () => {
    const line = makeBankBoletoLine('341', 123456, '2026-12-10', '1234567890123456789012345');
    expect(line).toHaveLength(47);
    expect(parseBoleto(line, '2026-11-27')).toMatchObject({
      ok: true,
      boleto: { kind: 'bank', amountCents: 123456, dueDate: '2026-12-10', bank: '341' },
    });
  });
});
