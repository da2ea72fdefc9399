import { describe, expect, it } from 'vitest';
import { isValidCep, maskCep, normalizeCep } from './cep.ts';
import {
  CNPJ_INVALID,
  CPF_INVALID,
  customerInputSchema,
  customerListQuerySchema,
  customerTagsSchema,
  customerUpdateSchema,
  ONE_DEFAULT_ADDRESS,
  PHONE_INVALID,
} from './customer.ts';
import { isValidCnpj, isValidCpf, maskDocument } from './document.ts';

const VALID_CPFS = ['529.982.247-25', '111.444.777-35', '390.533.447-05', '52998224725'];
const INVALID_CPFS = [
  '529.982.247-24',
  '111.444.777-53',
  '111.111.111-11',
  '000.000.000-00',
  '1234567890',
  '',
];
const VALID_CNPJS = [
  '11.222.333/0001-81',
  '33.000.167/0001-01',
  '42.318.949/0001-84',
  '11222333000181',
  '12.ABC.345/01DE-35',
  '12abc34501de35',
];
const INVALID_CNPJS = [
  '11.222.333/0001-82',
  '33.000.167/0001-10',
  '00.000.000/0000-00',
  '12.ABC.345/01DE-36',
  '12.ABC.345/01DE-3A',
  '12.ABC.345/01D',
  'AB.CDE.FGH/IJKL-MN',
];

const address = {
  zipCode: '01001-000',
  street: 'Praça da Sé',
  number: '100',
  neighborhood: 'Sé',
  city: 'São Paulo',
  state: 'sp',
};

const issuesOf = (input: unknown) => {
  const r = customerInputSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('CPF and CNPJ check digits', () => {
  it.each(VALID_CPFS)('accepts CPF %s', (cpf) => expect(isValidCpf(cpf)).toBe(true));
  it.each(INVALID_CPFS)('rejects CPF %s', (cpf) => expect(isValidCpf(cpf)).toBe(false));
  it.each(VALID_CNPJS)('accepts CNPJ %s (numeric and alphanumeric)', (cnpj) =>
    expect(isValidCnpj(cnpj)).toBe(true),
  );
  it.each(INVALID_CNPJS)('rejects CNPJ %s', (cnpj) => expect(isValidCnpj(cnpj)).toBe(false));

  it('masks CPF and alphanumeric CNPJ', () => {
    expect(maskDocument('52998224725')).toBe('529.982.247-25');
    expect(maskDocument('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(maskDocument('11222333000181')).toBe('11.222.333/0001-81');
  });
});

describe('CEP format', () => {
  it('accepts 8 digits with or without the dash and masks them', () => {
    expect(isValidCep('01001-000')).toBe(true);
    expect(isValidCep('01001000')).toBe(true);
    expect(normalizeCep('01001-000')).toBe('01001000');
    expect(maskCep('01001000')).toBe('01001-000');
    expect(maskCep('0100')).toBe('0100');
  });
  it.each(['0100-000', '010010000', 'abcde-fgh', '00000-000', '', '01001 000'])('rejects %s', (cep) =>
    expect(isValidCep(cep)).toBe(false),
  );
});

describe('customer input', () => {
  it('normalizes document, phone, email and empty optionals', () => {
    const out = customerInputSchema.parse({
      name: '  Maria Souza ',
      document: '529.982.247-25',
      phone: '(11) 98765-4321',
      email: ' Maria@Email.COM ',
      birthDate: '',
      notes: '  ',
    });
    expect(out).toMatchObject({
      personType: 'person',
      name: 'Maria Souza',
      document: '52998224725',
      phone: '5511987654321',
      email: 'maria@email.com',
      birthDate: null,
      notes: null,
      creditLimitCents: 0,
      active: true,
      addresses: [],
    });
  });

  it('asks for a CPF for a person and a CNPJ for a company', () => {
    expect(issuesOf({ name: 'Ana', document: '529.982.247-24' })).toEqual([
      { path: 'document', message: CPF_INVALID },
    ]);
    expect(issuesOf({ name: 'Ana', personType: 'person', document: '11.222.333/0001-81' })).toEqual([
      { path: 'document', message: CPF_INVALID },
    ]);
    expect(issuesOf({ name: 'ACME', personType: 'company', document: '12.ABC.345/01DE-36' })).toEqual([
      { path: 'document', message: CNPJ_INVALID },
    ]);
    expect(issuesOf({ name: 'ACME', personType: 'company', document: '12.ABC.345/01DE-35' })).toEqual([]);
    expect(
      customerInputSchema.parse({ name: 'ACME', personType: 'company', document: '12.abc.345/01de-35' })
        .document,
    ).toBe('12ABC34501DE35');
  });

  it('gives Portuguese messages for name, phone, email, dates and limit', () => {
    expect(issuesOf({})).toContainEqual({ path: 'name', message: 'O campo é obrigatório' });
    expect(issuesOf({ name: 'Jo', phone: '1234' })).toEqual([{ path: 'phone', message: PHONE_INVALID }]);
    expect(issuesOf({ name: 'Jo', email: 'nada' })).toEqual([{ path: 'email', message: 'Email inválido' }]);
    expect(issuesOf({ name: 'Jo', birthDate: '2001-02-30' })).toEqual([
      { path: 'birthDate', message: 'Data inválida' },
    ]);
    expect(issuesOf({ name: 'Jo', birthDate: '2999-01-01' })[0].message).toMatch(/futura/);
    expect(issuesOf({ name: 'Jo', creditLimitCents: -1 })[0].message).toBe(
      'O limite de crédito não pode ser negativo',
    );
  });

  it('keeps exactly one default address: the first when none is marked, an error when two are', () => {
    const out = customerInputSchema.parse({ name: 'Jo', addresses: [address, { ...address, number: '2' }] });
    expect(out.addresses.map((a) => a.isDefault)).toEqual([true, false]);
    expect(out.addresses[0]).toMatchObject({ zipCode: '01001000', state: 'SP', complement: null });
    const marked = customerInputSchema.parse({
      name: 'Jo',
      addresses: [address, { ...address, isDefault: true }],
    });
    expect(marked.addresses.map((a) => a.isDefault)).toEqual([false, true]);
    expect(
      issuesOf({
        name: 'Jo',
        addresses: [
          { ...address, isDefault: true },
          { ...address, isDefault: true },
        ],
      }),
    ).toEqual([{ path: 'addresses', message: ONE_DEFAULT_ADDRESS }]);
    expect(issuesOf({ name: 'Jo', addresses: [{ ...address, zipCode: '123' }] })).toEqual([
      { path: 'addresses.0.zipCode', message: 'CEP inválido' },
    ]);
    expect(issuesOf({ name: 'Jo', addresses: [{ ...address, state: 'XX' }] })).toEqual([
      { path: 'addresses.0.state', message: 'UF inválida' },
    ]);
  });

  it('requires updatedAt on edit and parses list filters', () => {
    expect(customerUpdateSchema.safeParse({ name: 'Jo' }).success).toBe(false);
    expect(customerListQuerySchema.parse({ delinquent: 'true', whatsappValid: 'unknown' })).toMatchObject({
      delinquent: true,
      whatsappValid: 'unknown',
      page: 1,
    });
  });
});

describe('customer tags', () => {
  it('trims, collapses spaces and drops duplicates ignoring case, keeping the first spelling', () => {
    expect(customerTagsSchema.parse(['  Clube  VIP ', 'clube vip', 'Atacado'])).toEqual([
      'Clube VIP',
      'Atacado',
    ]);
    expect(customerTagsSchema.safeParse(['  ']).success).toBe(false);
    expect(customerTagsSchema.safeParse(['x'.repeat(31)]).success).toBe(false);
    expect(customerTagsSchema.safeParse(Array.from({ length: 21 }, (_, i) => `t${i}`)).success).toBe(false);
  });
});
