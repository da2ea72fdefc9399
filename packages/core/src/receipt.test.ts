import { describe, expect, it } from 'vitest';
import { receiptLines, receiptRow } from './receipt.ts';
import type { Sale } from './sale.ts';

describe('receipt', () => {
  const sale: Parameters<typeof receiptLines>[0] = {
    number: 42,
    createdAt: '2025-03-10T15:04:00.000Z',
    status: 'finished',
    customer: { id: 1, name: 'Maria da Silva', document: null, phone: null },
    user: { id: 1, name: 'Caixa Demo' },
    items: [
      {
        id: 1,
        productId: 1,
        variantId: null,
        description: 'Queijo minas frescal',
        variantName: null,
        sku: null,
        barcode: null,
        unit: 'kg',
        quantity: 0.75,
        unitPriceCents: 4590,
        additionals: [],
        unitTotalCents: 4590,
        grossCents: 3443,
        discountType: 'fixed_amount',
        discountValue: 0,
        discountCents: 0,
        totalCents: 3443,
        notes: null,
      },
    ] satisfies Sale['items'],
    payments: [{ id: 1, method: 'money', amountCents: 3443, numberInstallments: 1, dueDate: null }],
    receivables: [],
    totalCents: 3443,
    discountCents: 0,
    couponDiscountCents: 0,
    coupon: null,
    freightCents: 0,
    finalAmountCents: 3443,
    cashDepositAmountCents: 5000,
    changeCents: 1557,
  };

  it('fits 32 columns on 58 mm and 48 on 80 mm', () => {
    for (const [width, cols] of [
      [58, 32],
      [80, 48],
    ] as const) {
      const lines = receiptLines(sale, { name: 'Loja Demo Balcão', timeZone: 'America/Sao_Paulo' }, width);
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(cols);
      expect(lines.join('\n')).toContain('Venda nº 42');
      expect(lines.join('\n')).toContain('10/03/2025');
      expect(lines.some((l) => l.startsWith('Troco') && l.endsWith('15,57'))).toBe(true);
      expect(lines.some((l) => l.startsWith('TOTAL') && l.endsWith('R$ 34,43'))).toBe(true);
    }
  });

  it("prints a Pix QR dinâmico's endToEndId under its payment, within 32 and 48 columns (issue 33)", () => {
    const e2e = 'E18236120202611271415s0123456789';
    const pixSale = {
      ...sale,
      payments: [
        {
          id: 1,
          method: 'pixQrCode' as const,
          amountCents: 3443,
          numberInstallments: 1,
          dueDate: null,
          pixEndToEndId: e2e,
        },
      ],
      cashDepositAmountCents: 0,
      changeCents: 0,
    };
    for (const width of [58, 80] as const) {
      const lines = receiptLines(pixSale, { name: 'Loja', timeZone: 'America/Sao_Paulo' }, width);
      const at = lines.findIndex((l) => l.startsWith('Pix QR dinâmico'));
      // 80 mm: one line; 58 mm (32 columns): the id, 32 characters, on a line of its own.
      expect(lines.slice(at + 1, at + (width === 58 ? 3 : 2))).toEqual(
        width === 58 ? ['   E2E', e2e] : [`   E2E ${e2e}`],
      );
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(width === 58 ? 32 : 48);
    }
  });

  it('rows put the right text flush right', () => {
    expect(receiptRow('Total', '10,00', 12)).toBe('Total  10,00');
    expect(receiptRow('Um nome muito longo', '1,00', 12)).toBe('Um nome 1,00');
  });
});

describe('receipt shop texts', () => {
  it('prints the address, the header after the shop and the footer in place of the thanks', async () => {
    const lines = receiptLines;
    const sale = {
      number: 7,
      createdAt: '2026-11-20T15:00:00.000Z',
      items: [],
      payments: [],
      totalCents: 0,
      discountCents: 0,
      couponDiscountCents: 0,
      coupon: null,
      freightCents: 0,
      finalAmountCents: 0,
      cashDepositAmountCents: 0,
      changeCents: 0,
      customer: null,
      user: { id: 1, name: 'Ana' },
      status: 'finished',
      receivables: [],
    } as unknown as Parameters<typeof lines>[0];
    const text = lines(
      sale,
      {
        name: 'Padaria',
        address: 'Rua A, 1 - Centro - São Paulo/SP',
        header: 'Bem-vindo!',
        footer: 'Trocas em 7 dias\nVolte sempre',
        timeZone: 'America/Manaus',
      },
      58,
    ).map((l) => l.trim());
    expect(text.slice(0, 5)).toEqual([
      'Padaria',
      'Rua A, 1 - Centro - São Paulo/SP',
      '-'.repeat(32),
      'Bem-vindo!',
      '-'.repeat(32),
    ]);
    expect(text.slice(-2)).toEqual(['Trocas em 7 dias', 'Volte sempre']);
    expect(text).not.toContain('Obrigado pela preferência!');
    // 15:00Z is 11:00 in Manaus.
    expect(text.find((l) => l.startsWith('Venda nº 7'))).toMatch(/11:00$/);
  });
});

describe('receipt header (issue 30)', () => {
  it("prints the shop's CNPJ and phone formatted", async () => {
    const { receiptLines: lines } = await import('./receipt.ts');
    const text = lines(
      {
        number: 1,
        createdAt: '2025-03-10T15:04:00.000Z',
        status: 'finished',
        customer: null,
        user: { id: 1, name: 'Caixa' },
        items: [],
        payments: [],
        receivables: [],
        totalCents: 0,
        discountCents: 0,
        couponDiscountCents: 0,
        coupon: null,
        freightCents: 0,
        finalAmountCents: 0,
        cashDepositAmountCents: 0,
        changeCents: 0,
      },
      {
        name: 'Lanchonete',
        document: '11222333000181',
        phone: '5511987654321',
        timeZone: 'America/Sao_Paulo',
      },
      58,
    );
    expect(text.map((l) => l.trim())).toEqual(
      expect.arrayContaining(['CNPJ 11.222.333/0001-81', 'Tel.: (11) 98765-4321']),
    );
  });
});
