import { describe, expect, it } from 'vitest';
import { buildPixPayload, crc16, isPixCrcValid, parsePixFields, pixPayloadProblem, pixText } from './pix.ts';
import { companySettingsInputSchema } from './settings.ts';

describe('crc16 (CCITT-FALSE)', () => {
  it('gives the standard check value for "123456789"', () => {
    expect(crc16('123456789')).toBe('29B1');
  });
  it('pads to 4 upper-case hex digits', () => {
    expect(crc16('')).toBe('FFFF');
    expect(crc16('A')).toMatch(/^[0-9A-F]{4}$/);
  });
});

describe('buildPixPayload', () => {
  it('matches the first INTEGRATIONS.md vector (random key, no amount)', () => {
    expect(
      buildPixPayload({
        key: '123e4567-e12b-12d1-a456-426655440000',
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
      }),
    ).toBe(
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
    );
  });

  it('matches the second vector (e-mail key, description, R$ 10,00)', () => {
    expect(
      buildPixPayload({
        key: 'thalesog@me.com',
        description: 'Pedido 123',
        amountCents: 1000,
        merchantName: 'Thales Ogliari',
        merchantCity: 'SAO MIGUEL DO O',
      }),
    ).toBe(
      '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***63044367',
    );
  });

  it('strips accents and cuts the name at 25 and the city at 15 characters', () => {
    const payload = buildPixPayload({
      key: 'pix@loja.com.br',
      merchantName: 'Padaria e Confeitaria São João da Esquina',
      merchantCity: 'São José dos Campos',
      amountCents: 12345,
      txid: 'VENDA-42',
    });
    const fields = parsePixFields(payload);
    expect(fields['59']).toBe('Padaria e Confeitaria Sao');
    expect(fields['60']).toBe('Sao Jose dos Ca');
    expect(fields['54']).toBe('123.45');
    expect(parsePixFields(fields['62'])['05']).toBe('VENDA42');
    expect(isPixCrcValid(payload)).toBe(true);
    expect(isPixCrcValid(payload.replace('123.45', '123.46'))).toBe(false);
  });

  it('writes cents with two decimals', () => {
    const fields = parsePixFields(
      buildPixPayload({ key: 'k', merchantName: 'Loja', merchantCity: 'RIO', amountCents: 5 }),
    );
    expect(fields['54']).toBe('0.05');
  });

  it('refuses settings without key or merchant data with a Portuguese message', () => {
    expect(pixPayloadProblem({ key: '', merchantName: 'A', merchantCity: 'B' })).toMatch(/chave Pix/);
    expect(pixPayloadProblem({ key: 'k', merchantName: '', merchantCity: 'B' })).toMatch(/nome e a cidade/);
    expect(() => buildPixPayload({ key: ' ', merchantName: 'A', merchantCity: 'B' })).toThrow(/chave Pix/);
  });

  it('pixText keeps printable ASCII only', () => {
    expect(pixText('  Açaí   do Zé ✓ ', 25)).toBe('Acai do Ze');
  });
});

describe('Pix payload hardening (issue 31 item 15)', () => {
  it('turns a tab or a line break in the merchant name into a space', () => {
    expect(pixText('Loja\tCentral', 25)).toBe('Loja Central');
    expect(pixText('Padaria\r\nPão Quente', 25)).toBe('Padaria Pao Quente');
    const fields = parsePixFields(
      buildPixPayload({ key: 'k@loja.com', merchantName: 'Loja\tCentral', merchantCity: 'Rio\nde Janeiro' }),
    );
    expect(fields['59']).toBe('Loja Central');
    expect(fields['60']).toBe('Rio de Janeiro');
  });

  it('writes an e-mail key in lower case', () => {
    const payload = buildPixPayload({
      key: ' Pix@PaoQuente.COM.br ',
      merchantName: 'Loja',
      merchantCity: 'RIO',
    });
    expect(parsePixFields(parsePixFields(payload)['26'])['01']).toBe('pix@paoquente.com.br');
    expect(isPixCrcValid(payload)).toBe(true);
  });

  it('a long key with a description never throws: the description is cut to the room left', () => {
    const key = `${'a'.repeat(64)}@exemplo.com`; // 76 characters
    const payload = buildPixPayload({
      key,
      merchantName: 'Loja',
      merchantCity: 'RIO',
      description: 'Pedido 123 da mesa 4 com observações',
    });
    const account = parsePixFields(payload)['26'];
    expect(account.length).toBeLessThanOrEqual(99);
    expect(parsePixFields(account)['01']).toBe(key);
    expect(isPixCrcValid(payload)).toBe(true);
    // An e-mail key of 60: the description keeps what fits.
    const shorter = parsePixFields(
      buildPixPayload({
        key: `${'b'.repeat(48)}@exemplo.com`,
        merchantName: 'Loja',
        merchantCity: 'RIO',
        description: 'Pedido 123 da mesa 4',
      }),
    )['26'];
    expect(shorter.length).toBeLessThanOrEqual(99);
    expect(parsePixFields(shorter)['02']).toBe('Pedido 123 da');
  });

  it('a key past 77 characters is a Portuguese problem, not "Pix field 26 too long"', () => {
    const key = `${'c'.repeat(70)}@exemplo.com`;
    expect(pixPayloadProblem({ key, merchantName: 'Loja', merchantCity: 'RIO' })).toBe(
      'A chave Pix deve ter no máximo 77 caracteres',
    );
    expect(() => buildPixPayload({ key, merchantName: 'Loja', merchantCity: 'RIO' })).toThrow(
      'A chave Pix deve ter no máximo 77 caracteres',
    );
  });

  it('the settings form checks the lengths with Portuguese messages and stores clean values', () => {
    const base = {
      name: 'Pão Quente',
      document: '11.222.333/0001-81',
      clientTypeId: 1,
      phone: '(11) 3333-4444',
      address: {},
      saleCommand: false,
      stockManagement: false,
      checkIsOpen: false,
    };
    const tooLong = companySettingsInputSchema.safeParse({
      ...base,
      pixKey: `${'c'.repeat(70)}@exemplo.com`,
      pixMerchantName: 'Padaria e Confeitaria Pão Quente',
      pixMerchantCity: 'São José dos Campos',
    });
    expect(tooLong.success).toBe(false);
    const messages = Object.fromEntries(
      (tooLong.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
    );
    expect(messages).toEqual({
      pixKey: 'A chave Pix deve ter no máximo 77 caracteres',
      pixMerchantName: 'O nome do recebedor Pix deve ter no máximo 25 caracteres',
      pixMerchantCity: 'A cidade do recebedor Pix deve ter no máximo 15 caracteres',
    });
    const clean = companySettingsInputSchema.parse({
      ...base,
      pixKey: 'Pix@PaoQuente.com.br',
      pixMerchantName: 'Pão\tQuente',
      pixMerchantCity: 'São\nPaulo',
    });
    expect(clean).toMatchObject({
      pixKey: 'pix@paoquente.com.br',
      pixMerchantName: 'Pão Quente',
      pixMerchantCity: 'São Paulo',
    });
  });
});
