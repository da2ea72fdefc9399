import { BUDGET_MESSAGES, type BudgetPublic } from '@balcao/core/budget';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BudgetApprovalPage from './BudgetApprovalPage.tsx';

/** The public view of one budget (the page reads only these fields here). */
const PUBLIC = {
  shop: { name: 'Loja', document: null, phone: null, email: null, address: null, logoUrl: null },
  budget: {
    number: 12,
    typeOfSale: 'store',
    deliveryAddress: null,
    items: [],
    itemsGrossCents: 1000,
    itemsDiscountCents: 0,
    discountCents: 0,
    freightCents: 0,
    finalAmountCents: 1000,
    validUntil: '2026-02-01',
    notes: null,
    paymentConditions: null,
    answer: null,
    answeredAt: null,
    refusalReason: null,
    createdAt: '2026-01-10T12:00:00.000Z',
    customerName: 'Bia',
    customerDocument: null,
    customerPhone: null,
    sellerName: 'Ana',
    state: 'open',
  },
} as unknown as BudgetPublic;

function serve(answer: BudgetPublic = PUBLIC) {
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return new Response(
          JSON.stringify({
            message: 'Dados inválidos',
            issues: [{ path: 'reason', message: 'Motivo recusado' }],
          }),
          { status: 400 },
        );
      }
      return new Response(JSON.stringify(answer), { status: 200 });
    }),
  );
  return posts;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the customer's approval page", () => {
  it('asks a reason of 3 characters before refusing, and puts a refused one under it', {
    timeout: 20_000,
  }, async () => {
    const posts = serve();
    render(
      <MemoryRouter initialEntries={['/orcamento/abc123']}>
        <BudgetApprovalPage />
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Recusar' }));
    const dialog = await screen.findByRole('dialog');
    const reason = within(dialog).getByLabelText('Motivo da recusa');
    fireEvent.change(reason, { target: { value: 'ab' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Recusar' }));
    expect(await within(dialog).findByText(BUDGET_MESSAGES.reasonRequired)).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(posts).toEqual([]);

    fireEvent.change(reason, { target: { value: 'Caro demais' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Recusar' }));
    expect(await within(dialog).findByText('Motivo recusado')).toBeTruthy();
    await waitFor(() => expect(posts).toEqual([{ answer: 'refused', reason: 'Caro demais' }]));
  });

  it('after conversion shows the shop, the customer, free delivery and the PDF, with nothing to answer (issue 30)', async () => {
    serve({
      shop: { ...PUBLIC.shop, name: 'Kanto Burger & Grill Lanchonete' },
      budget: {
        ...PUBLIC.budget,
        state: 'converted',
        typeOfSale: 'delivery',
        customerDocument: '52998224725',
        customerPhone: '5511987654321',
        deliveryAddress: {
          zipCode: '01001000',
          street: 'Praça da Sé',
          number: '100',
          complement: null,
          neighborhood: 'Sé',
          city: 'São Paulo',
          state: 'SP',
          reference: null,
        },
      },
    } as unknown as BudgetPublic);
    render(
      <MemoryRouter initialEntries={['/orcamento/abc123']}>
        <BudgetApprovalPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Kanto Burger & Grill Lanchonete')).toBeTruthy();
    expect(screen.getByTestId('approval-state').textContent).toBe(
      'Este orçamento já foi convertido em venda.',
    );
    expect(screen.getByText('CPF/CNPJ: 529.982.247-25 · Telefone: (11) 98765-4321')).toBeTruthy();
    expect(screen.getByText(/CEP 01001-000/)).toBeTruthy();
    expect(screen.getByText('Grátis')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Baixar PDF' }).getAttribute('href')).toContain('/abc123/pdf');
    expect(screen.queryByRole('button', { name: 'Aprovar' })).toBeNull();
  });
});

describe('approval page: Pix QR dinâmico (issue 33)', () => {
  it('an approved budget is paid by Pix: the charge of its total, then "Pago" by itself', async () => {
    const approved = { ...PUBLIC, budget: { ...PUBLIC.budget, answer: 'approved' } } as BudgetPublic;
    const charge = {
      txid: 'blc0123456789abcdef0123456789a',
      status: 'active',
      amountCents: 1000,
      pixCopiaECola:
        '00020101021226850014br.gov.bcb.pix2563pix.example.com/qr/v2/cobv/abc5204000053039865802BR',
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
      paidAt: null,
      endToEndId: null,
      saleId: null,
    };
    let bankPaid = false;
    const posts: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (String(url).endsWith('/pix')) {
          if (init?.method === 'POST') posts.push(String(url));
          const current =
            init?.method === 'POST' || posts.length > 0
              ? bankPaid
                ? { ...charge, status: 'paid', endToEndId: 'E1234', paidAt: new Date().toISOString() }
                : charge
              : null;
          return new Response(JSON.stringify({ offered: true, charge: current }), { status: 200 });
        }
        return new Response(JSON.stringify(approved), { status: 200 });
      }),
    );
    render(
      <MemoryRouter initialEntries={['/orcamento/abcdefghijklmnopqrstuvwxyz012345']}>
        <BudgetApprovalPage />
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Pagar com Pix' }));
    expect(await screen.findByText('Aguardando pagamento')).toBeTruthy();
    expect(screen.getByText('Pague no app do seu banco: a confirmação aparece aqui sozinha.')).toBeTruthy();
    expect(posts).toHaveLength(1);
    bankPaid = true;
    expect(
      await screen.findByText('Pix recebido pela loja. Obrigado!', undefined, { timeout: 4000 }),
    ).toBeTruthy();
    expect(screen.getByText('Pago')).toBeTruthy();
  });
});
