import { describe, expect, it } from 'vitest';
import { createAccountInputSchema, loginInputSchema } from './auth.ts';
import { LOGIN_FAILED_MESSAGE, REQUIRED } from './messages.ts';
import {
  CLIENT_TYPE_IDS,
  defaultChecklist,
  USER_TYPE_IDS,
  USER_TYPE_SLUGS,
  USER_TYPES,
} from './userTypes.ts';

const issuesOf = (input: unknown) => {
  const r = createAccountInputSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

const valid = {
  systemClient: {
    name: 'Padaria Pão Quente',
    document: '11.222.333/0001-81',
    clientTypeId: '5',
    phone: '(11) 98765-4321',
  },
  user: {
    name: 'Maria',
    email: ' Maria@Exemplo.com.BR ',
    password: 'senha1234',
    passwordConfirmation: 'senha1234',
  },
};

describe('login input', () => {
  it('trims the email, never the password, and requires both', () => {
    expect(loginInputSchema.parse({ email: ' a@b.com ', password: ' x ' })).toEqual({
      email: 'a@b.com',
      password: ' x ',
    });
    const r = loginInputSchema.safeParse({ email: '  ', password: '' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual([REQUIRED, REQUIRED]);
    expect(REQUIRED).toBe('O campo é obrigatório');
    expect(LOGIN_FAILED_MESSAGE).toBe('Ocorreu um erro tentar efetuar login');
  });

  it('says a missing field is required, in Portuguese', () => {
    const r = loginInputSchema.safeParse({});
    expect(r.error?.issues.map((i) => i.message)).toEqual([REQUIRED, REQUIRED]);
  });
});

describe('create account input', () => {
  it('normalizes document, phone, segment and email', () => {
    const out = createAccountInputSchema.parse(valid);
    expect(out.systemClient).toEqual({
      name: 'Padaria Pão Quente',
      document: '11222333000181',
      clientTypeId: 5,
      phone: '5511987654321',
    });
    expect(out.user.email).toBe('maria@exemplo.com.br');
  });

  it('explains each bad field in Portuguese', () => {
    const issues = issuesOf({
      systemClient: { name: 'X', document: '11.222.333/0001-82', clientTypeId: 0, phone: '123' },
      user: { name: '', email: 'maria', password: 'curta', passwordConfirmation: 'curta' },
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'systemClient.name', message: 'Informe o nome da empresa' },
        { path: 'systemClient.document', message: 'CPF ou CNPJ inválido' },
        { path: 'systemClient.clientTypeId', message: 'Selecione o segmento' },
        { path: 'systemClient.phone', message: 'Telefone inválido' },
        { path: 'user.name', message: 'Informe seu nome' },
        { path: 'user.email', message: 'Email inválido' },
        { path: 'user.password', message: 'A senha deve ter no mínimo 8 caracteres' },
      ]),
    );
  });

  it('refuses a password confirmation that does not match', () => {
    expect(issuesOf({ ...valid, user: { ...valid.user, passwordConfirmation: 'senha12345' } })).toEqual([
      { path: 'user.passwordConfirmation', message: 'As senhas não conferem' },
    ]);
  });

  it('accepts a CPF and an alphanumeric CNPJ', () => {
    for (const document of ['529.982.247-25', '12.ABC.345/01DE-35']) {
      expect(issuesOf({ ...valid, systemClient: { ...valid.systemClient, document } })).toEqual([]);
    }
  });
});

describe('user and client types', () => {
  it('has the 11 user types with their demo slugs', () => {
    expect(USER_TYPE_IDS).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(USER_TYPES[5]).toBe('Garçom');
    expect(Object.values(USER_TYPE_SLUGS)).toEqual([
      'administrador',
      'gerente',
      'vendedor',
      'caixa',
      'garcom',
      'estoquista',
      'financeiro',
      'atendente',
      'marketing',
      'entregador',
      'entregador-parceiro',
    ]);
  });

  it('turns comandas on by default only for food segments 5-10', () => {
    for (const id of CLIENT_TYPE_IDS) {
      expect(defaultChecklist(id), `segment ${id}`).toEqual({
        saleCommand: id >= 5 && id <= 10,
        stockManagement: true,
        checkIsOpen: false,
      });
    }
  });
});
