import { describe, expect, it } from 'vitest';
import {
  isValidCnpj,
  isValidCpf,
  isValidCpfOrCnpj,
  isValidPhone,
  maskDocument,
  maskPhone,
  normalizeDocument,
  normalizePhone,
  onlyDigits,
} from './document.ts';

// Vectors from docs/INTEGRATIONS.md.
const VALID_CPF = ['529.982.247-25', '111.444.777-35', '390.533.447-05'];
const VALID_CNPJ = ['11.222.333/0001-81', '33.000.167/0001-01', '42.318.949/0001-84'];
const ALPHANUMERIC_CNPJ = '12.ABC.345/01DE-35';

describe('CPF', () => {
  it.each(VALID_CPF)('accepts %s, masked or bare', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
    expect(isValidCpf(onlyDigits(cpf))).toBe(true);
  });

  it('rejects a wrong first or second check digit', () => {
    expect(isValidCpf('529.982.247-35')).toBe(false);
    expect(isValidCpf('529.982.247-26')).toBe(false);
    expect(isValidCpf('111.444.777-53')).toBe(false);
  });

  it.each(['000.000.000-00', '111.111.111-11', '999.999.999-99', '22222222222'])(
    'rejects all-equal digits %s (they pass the check-digit math)',
    (cpf) => expect(isValidCpf(cpf)).toBe(false),
  );

  it.each(['', '5299822472', '529982247250', '529.982.247-2X', 'abcdefghijk'])(
    'rejects the wrong length or letters: %s',
    (cpf) => expect(isValidCpf(cpf)).toBe(false),
  );

  it('computes a check digit of 0 when the remainder is 10', () => {
    // 390.533.447-05: DV1 = (sum*10) mod 11 = 10 -> 0.
    expect(isValidCpf('39053344705')).toBe(true);
    expect(isValidCpf('39053344715')).toBe(false);
  });
});

describe('CNPJ', () => {
  it.each(VALID_CNPJ)('accepts %s, masked or bare', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
    expect(isValidCnpj(onlyDigits(cnpj))).toBe(true);
  });

  it('accepts the alphanumeric CNPJ (letters are ASCII - 48), in any case', () => {
    expect(isValidCnpj(ALPHANUMERIC_CNPJ)).toBe(true);
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12.abc.345/01de-35')).toBe(true);
  });

  it('rejects wrong check digits, numeric and alphanumeric', () => {
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('11.222.333/0001-91')).toBe(false);
    expect(isValidCnpj('12.ABC.345/01DE-36')).toBe(false);
    expect(isValidCnpj('12.ABC.345/01DF-35')).toBe(false);
  });

  it('rejects letters in the check digits and a wrong length', () => {
    expect(isValidCnpj('12.ABC.345/01DE-3A')).toBe(false);
    expect(isValidCnpj('12ABC34501DE3')).toBe(false);
    expect(isValidCnpj('112223330001811')).toBe(false);
    expect(isValidCnpj('')).toBe(false);
  });

  it.each(['00.000.000/0000-00', '11111111111111', '99.999.999/9999-99'])(
    'rejects all-equal digits %s',
    (cnpj) => expect(isValidCnpj(cnpj)).toBe(false),
  );
});

describe('CPF or CNPJ', () => {
  it('picks the rule by length', () => {
    for (const doc of [...VALID_CPF, ...VALID_CNPJ, ALPHANUMERIC_CNPJ])
      expect(isValidCpfOrCnpj(doc)).toBe(true);
    expect(isValidCpfOrCnpj('529.982.247-24')).toBe(false);
    expect(isValidCpfOrCnpj('11.222.333/0001-80')).toBe(false);
    expect(isValidCpfOrCnpj('123456789012')).toBe(false);
    expect(isValidCpfOrCnpj('')).toBe(false);
  });

  it('normalizes to digits and upper-case letters', () => {
    expect(normalizeDocument(' 529.982.247-25 ')).toBe('52998224725');
    expect(normalizeDocument('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });
});

describe('document mask', () => {
  it('masks a CPF as it is typed', () => {
    expect(maskDocument('')).toBe('');
    expect(maskDocument('529')).toBe('529');
    expect(maskDocument('5299')).toBe('529.9');
    expect(maskDocument('529982')).toBe('529.982');
    expect(maskDocument('5299822')).toBe('529.982.2');
    expect(maskDocument('529982247')).toBe('529.982.247');
    expect(maskDocument('5299822472')).toBe('529.982.247-2');
    expect(maskDocument('52998224725')).toBe('529.982.247-25');
  });

  it('switches to the CNPJ mask past 11 characters', () => {
    expect(maskDocument('112223330001')).toBe('11.222.333/0001');
    expect(maskDocument('1122233300018')).toBe('11.222.333/0001-8');
    expect(maskDocument('11222333000181')).toBe('11.222.333/0001-81');
  });

  it('masks an alphanumeric CNPJ in upper case', () => {
    expect(maskDocument('12abc')).toBe('12.ABC');
    expect(maskDocument('12abc34501de35')).toBe(ALPHANUMERIC_CNPJ);
  });

  it('is stable on masked text and drops what does not fit', () => {
    for (const doc of [...VALID_CPF, ...VALID_CNPJ, ALPHANUMERIC_CNPJ]) expect(maskDocument(doc)).toBe(doc);
    expect(maskDocument('11.222.333/0001-8199')).toBe('11.222.333/0001-81');
    expect(maskDocument('529.982.247-25!')).toBe('529.982.247-25');
  });
});

describe('phone', () => {
  it('normalizes a Brazilian number to E.164 digits with 55', () => {
    expect(normalizePhone('(11) 98765-4321')).toBe('5511987654321');
    expect(normalizePhone('(11) 3222-1234')).toBe('551132221234');
    expect(normalizePhone('+55 11 98765-4321')).toBe('5511987654321');
    // DDD 55 (Rio Grande do Sul) is not mistaken for the country code.
    expect(normalizePhone('(55) 99123-4567')).toBe('5555991234567');
  });

  it('accepts mobiles and landlines, rejects the rest', () => {
    for (const phone of ['(11) 98765-4321', '(11) 3222-1234', '5511987654321', '+55 (55) 99123-4567']) {
      expect(isValidPhone(phone), phone).toBe(true);
    }
    for (const phone of [
      '',
      '1234',
      '(01) 98765-4321',
      '(10) 98765-4321',
      '11 98765-432',
      '551198765432100',
    ]) {
      expect(isValidPhone(phone), phone).toBe(false);
    }
  });

  it('masks as it is typed and from stored digits', () => {
    expect(maskPhone('')).toBe('');
    expect(maskPhone('1')).toBe('(1');
    expect(maskPhone('11')).toBe('(11');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('113222')).toBe('(11) 3222');
    expect(maskPhone('1132221')).toBe('(11) 3222-1');
    expect(maskPhone('1132221234')).toBe('(11) 3222-1234');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('5511987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('551132221234')).toBe('(11) 3222-1234');
    expect(maskPhone('55991234567')).toBe('(55) 99123-4567');
    expect(maskPhone('5555991234567')).toBe('(55) 99123-4567');
    expect(maskPhone('(11) 98765-43210000')).toBe('(11) 98765-4321');
  });
});
