import { type Campaign, PACING_DEFAULTS } from '@balcao/core/campaign';
import type { SessionPayload } from '@balcao/core/session';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSessionCookies, setSessionCookies } from '../../lib/cookies.ts';
import { setShopTimeZone } from '../../lib/format.ts';
import { SessionProvider } from '../auth/session.tsx';
import CampaignFormPage from './CampaignFormPage.tsx';

/** A shop in Manaus (UTC-4), an hour behind São Paulo. */
const SESSION = {
  user: {
    id: 1,
    name: 'Ana',
    email: 'ana@loja.com.br',
    active: true,
    profilePhotoWhatsapp: null,
    userType: { id: 1, name: 'Administrador' },
    client: {
      id: 1,
      name: 'Loja de Manaus',
      clientType: { id: 1, name: 'Varejo geral' },
      timeZone: 'America/Manaus',
      logoUrl: null,
    },
  },
  whatsappInstance: null,
  shippingSettings: null,
  paymentGateway: null,
  settingsChecklist: { saleCommand: false, stockManagement: true, checkIsOpen: false },
} satisfies SessionPayload;

/** Scheduled for 13:30 UTC: 09:30 on the shop's clock (10:30 in São Paulo). */
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

/** The API as the page reads it; the saved bodies are kept. */
function serve() {
  const saved: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
      if (url === '/v1/user/me') return json(SESSION);
      if (url.startsWith('/v1/shipping-settings/')) return json([]);
      if (url === '/v1/campaign/7' && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return json({ ...CAMPAIGN, scheduledAt: body.scheduledAt });
      }
      if (url === '/v1/campaign/7') return json(CAMPAIGN);
      if (url.startsWith('/v1/coupon/') || url.startsWith('/v1/customer/tags/')) return json([]);
      if (url === '/v1/campaign/audience-count') return json({ total: 0, withWhatsapp: 0, optedOut: 0 });
      return json({ items: [], total: 0, page: 1, pageSize: 20 });
    }),
  );
  return saved;
}

/** The whole form renders (lazy chunks, several queries): a busy machine needs more than 1 s. */
const SLOW = { timeout: 10_000 };

afterEach(() => {
  cleanup();
  clearSessionCookies();
  setShopTimeZone();
  vi.unstubAllGlobals();
});

describe("the campaign form schedules on the shop's clock (the session's zone)", () => {
  it('shows and saves the time of a Manaus shop in Manaus, not São Paulo', async () => {
    const saved = serve();
    setSessionCookies('token', { id: 1, client: { id: 1 } });
    render(
      <SessionProvider>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter initialEntries={['/dashboard/campaign/edit/7']}>
            <Routes>
              <Route path="/dashboard/campaign/edit/:id" element={<CampaignFormPage />} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </SessionProvider>,
    );
    const input = (await screen.findByLabelText(/Agendar para/, {}, SLOW)) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('2026-12-01T09:30'), SLOW);

    fireEvent.change(input, { target: { value: '2026-12-02T08:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(saved).toHaveLength(1), SLOW);
    // 08:00 in Manaus is 12:00 UTC (São Paulo's clock would have made it 11:00 UTC).
    expect(saved[0].scheduledAt).toBe('2026-12-02T12:00:00.000Z');
  }, 30_000);
});
