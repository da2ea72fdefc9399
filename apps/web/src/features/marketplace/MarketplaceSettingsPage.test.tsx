import type { MarketplaceAccount, MarketplaceAccounts } from '@balcao/core/marketplace';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import MarketplaceSettingsPage from './MarketplaceSettingsPage.tsx';

const account = (over: Partial<MarketplaceAccount>): MarketplaceAccount => ({
  id: 1,
  kind: 'ifood',
  provider: '',
  name: 'iFood',
  merchantId: 'loja-1',
  clientId: 'cliente',
  hasSecret: true,
  active: true,
  autoConfirm: false,
  operator: { id: 1, name: 'Admin Demo' },
  lastPolledAt: null,
  lastError: null,
  updatedAt: '2026-11-27T12:00:00.000Z',
  ...over,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Configurações > Marketplaces', () => {
  it('says a refused account has had no good consultation yet, not that it was never consulted', {
    timeout: 20_000,
  }, async () => {
    const data: MarketplaceAccounts = {
      accounts: [
        account({
          id: 1,
          name: 'iFood',
          lastError: 'O iFood recusou as credenciais (HTTP 401): confira o client secret',
        }),
        account({ id: 2, name: 'iFood novo', merchantId: 'loja-2' }),
      ],
      providers: [],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(data), { status: 200 })),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <MarketplaceSettingsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const refused = await screen.findByRole('region', { name: 'Conta iFood' });
    expect(refused.textContent).toContain(
      'Loja loja-1 · caixa de Admin Demo · nenhuma consulta deu certo ainda',
    );
    expect(refused.textContent).toContain('O iFood recusou as credenciais (HTTP 401)');
    const fresh = screen.getByRole('region', { name: 'Conta iFood novo' });
    expect(fresh.textContent).toContain('Loja loja-2 · caixa de Admin Demo · ainda não consultado');
  });
});
