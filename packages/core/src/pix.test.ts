import { describe, expect, it } from 'vitest';
import { buildPixPayload, crc16, isPixCrcValid, parsePixFields, pixPayloadProblem, pixText } from './pix.ts';

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
