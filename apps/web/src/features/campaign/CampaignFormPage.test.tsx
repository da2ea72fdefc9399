import { type Campaign, PACING_DEFAULTS } from '@balcao/core/campaign';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { leaveShop, renderAsShop, SLOW, serveShop, shopSession } from '../../test/shop.tsx';
import CampaignFormPage from './CampaignFormPage.tsx';

/** Scheduled for 13:30 UTC: 09:30 on a Manaus shop's clock (10:30 in São Paulo). */
const CAMPAIGN: Campaign = {
  id: 7,
  name: 'Natal',
  category: null,
  message: 'Olá {nome}!',
  imageUrl: null,
  coupon: null,
  audience: {
    birthMonth: null,
    boughtWithinDays: null,
    notBoughtForDays: null,
    spentAboveCents: null,
    delinquent: 'any',
    tags: [],
  },
  pacing: PACING_DEFAULTS,
  scheduledAt: '2026-12-01T13:30:00.000Z',
  status: 'draft',
  pauseReason: null,
  startedAt: null,
  finishedAt: null,
  progress: { total: 0, waiting: 0, sending: 0, success: 0, failed: 0, skipped: 0 },
  estimatedEndAt: null,
  windowOpensAt: null,
  warmup: null,
  createdAt: '2026-11-20T12:00:00.000Z',
  updatedAt: '2026-11-20T12:00:00.000Z',
};

afterEach(() => {
  cleanup();
  leaveShop();
});

describe("the campaign form schedules on the shop's clock (the session's zone)", () => {
  it('shows and saves the time of a Manaus shop in Manaus, not São Paulo', async () => {
    const saved: Record<string, unknown>[] = [];
    serveShop(shopSession('America/Manaus'), (path, init) => {
      if (path === '/campaign/7' && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return { ...CAMPAIGN, scheduledAt: body.scheduledAt };
      }
      if (path === '/campaign/7') return CAMPAIGN;
      if (path === '/campaign/audience-count') return { total: 0, withWhatsapp: 0, optedOut: 0 };
      if (path.startsWith('/coupon/') || path.startsWith('/customer/tags/')) return [];
    });
    renderAsShop('/dashboard/campaign/edit/:id', '/dashboard/campaign/edit/7', <CampaignFormPage />);
    const input = (await screen.findByLabelText(/Agendar para/, {}, SLOW)) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('2026-12-01T09:30'), SLOW);

    fireEvent.change(input, { target: { value: '2026-12-02T08:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(saved).toHaveLength(1), SLOW);
    // 08:00 in Manaus is 12:00 UTC (São Paulo's clock would have made it 11:00 UTC).
    expect(saved[0].scheduledAt).toBe('2026-12-02T12:00:00.000Z');
  }, 30_000);
});

describe('the recipients on a phone (issue 30 item 21)', () => {
  it('labels every column of a recipient card (no column off-screen at 390 px)', async () => {
    const running: Campaign = {
      ...CAMPAIGN,
      status: 'running',
      scheduledAt: null,
      progress: { total: 1, waiting: 0, sending: 0, success: 1, failed: 0, skipped: 0 },
    };
    serveShop(shopSession('America/Manaus'), (path) => {
      if (path === '/campaign/7') return running;
      if (path.startsWith('/campaign/7/recipients'))
        return {
          items: [
            {
              id: 1,
              customerId: 1,
              name: 'Maria',
              phone: '5531987654321',
              status: 'success',
              reason: null,
              sentAt: '2026-12-01T13:31:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          pageSize: 20,
        };
      if (path === '/campaign/audience-count') return { total: 0, withWhatsapp: 0, optedOut: 0 };
      if (path.startsWith('/coupon/') || path.startsWith('/customer/tags/')) return [];
    });
    renderAsShop('/dashboard/campaign/edit/:id', '/dashboard/campaign/edit/7', <CampaignFormPage />);
    const table = await screen.findByRole('table', { name: 'Destinatários' }, SLOW);
    // The list table: a phone shows each row as a card whose cells carry their column's label.
    expect(table.parentElement?.className).toMatch(/MuiTableContainer/);
    const row = await within(table).findByRole('row', { name: /Maria/ }, SLOW);
    expect(within(row).getByText('(31) 98765-4321')).toBeTruthy();
  }, 30_000);
});
