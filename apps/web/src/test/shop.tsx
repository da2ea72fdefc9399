import type { SessionPayload } from '@balcao/core/session';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { SessionProvider } from '../features/auth/session.tsx';
import { clearSessionCookies, setSessionCookies } from '../lib/cookies.ts';
import { setShopTimeZone } from '../lib/format.ts';

/** An Administrador of a shop in `timeZone` (default Manaus, UTC-4: an hour behind São Paulo). */
export function shopSession(timeZone = 'America/Manaus'): SessionPayload {
  return {
    user: {
      id: 1,
      name: 'Ana',
      email: 'ana@loja.com.br',
      active: true,
      profilePhotoWhatsapp: null,
      userType: { id: 1, name: 'Administrador' },
      client: { id: 1, name: 'Loja', clientType: { id: 1, name: 'Varejo geral' }, timeZone, logoUrl: null },
    },
    whatsappInstance: null,
    shippingSettings: null,
    paymentGateway: null,
    settingsChecklist: { saleCommand: false, stockManagement: true, checkIsOpen: false },
  };
}

type Answer = (path: string, init?: RequestInit) => unknown;

/** The API answering every call with `body` (a page's one read, without a session); the URLs called, in order. */
export function serveOne(body: unknown) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
  return calls;
}

/**
 * The API as a page reads it through a logged session: the session's own calls are answered with
 * `session`, every other call with what `answer` returns for its path (without /v1); undefined is an
 * empty page of a list.
 */
export function serveShop(session: SessionPayload, answer: Answer) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.replace(/^\/v1/, '');
      const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
      if (path === '/user/me') return json(session);
      if (path.startsWith('/shipping-settings/')) return json([]);
      return json(answer(path, init) ?? { items: [], total: 0, page: 1, pageSize: 20 });
    }),
  );
}

/** Renders `page` at `path` (matched by `route`) inside a logged session and a fresh query cache. */
export function renderAsShop(route: string, path: string, page: ReactNode) {
  setSessionCookies('token', { id: 1, client: { id: 1 } });
  return render(
    <SessionProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={route} element={page} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </SessionProvider>,
  );
}

/** After each test: no session, the default zone, the real fetch. */
export function leaveShop() {
  clearSessionCookies();
  setShopTimeZone();
  vi.unstubAllGlobals();
}

/** A whole page renders (lazy chunks, several queries): a busy machine needs more than 1 s. */
export const SLOW = { timeout: 10_000 };
