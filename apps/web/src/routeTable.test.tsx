import { type AppRoute, MENU_GROUPS, PRODUCT_NAME, ROUTES } from '@balcao/core/routes';
import type { SessionUser } from '@balcao/core/session';
import { type SettingsChecklist, USER_TYPE_IDS, type UserTypeId } from '@balcao/core/userTypes';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter, type NavigateFunction, useLocation, useNavigate } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ThemeModeProvider } from './components/ThemeModeProvider.tsx';

/**
 * The route table as the web app decides it, for every route of core's ROUTES and every user type,
 * under two sets of the shop's flags: the real router (router.tsx), guard (RouteGuard.tsx) and private
 * shell with its side menu (layout/DashboardLayout.tsx), with the pages replaced by a stub that says
 * which page the router picked. The browser walks a sample of these routes (e2e/shell.spec.ts); this
 * covers all of them in seconds (it replaced a browser walk of every route for every type, 13.5 min).
 *
 * What is expected is read from the table's data (allowed, write, flag, menuGroup), not from the
 * helpers the guard calls, so a wrong helper fails here.
 */

type Flags = SettingsChecklist;
const session = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
/** The real private shell (menu, bars) or only its outlet: the route walk needs no menu at each step. */
const shell = vi.hoisted(() => ({ real: false }));

vi.mock('./features/auth/session.tsx', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useSession: () => session.current,
}));
// Each page is a stub naming its route; which routes have a page stays as in pages.tsx.
vi.mock('./pages.tsx', async (importOriginal) => {
  const { PAGES } = await importOriginal<{ PAGES: Record<string, unknown> }>();
  const stub = (name: string): ComponentType => {
    const Page = () => <p data-testid="page">{name}</p>;
    return Page;
  };
  return { PAGES: Object.fromEntries(Object.keys(PAGES).map((name) => [name, stub(name)])) };
});
// The shell's live parts (socket, billing and print queries) are not what this test is about.
vi.mock('./features/notification/useNotifications.ts', () => ({
  useNotifications: () => ({
    items: [],
    unread: 0,
    toasts: [],
    markAllRead: () => undefined,
    dismissToast: () => undefined,
    clear: () => undefined,
  }),
}));
vi.mock('./layout/DashboardLayout.tsx', async (importOriginal) => {
  const { default: Real } = await importOriginal<{ default: ComponentType }>();
  const { Outlet } = await import('react-router');
  return { default: () => (shell.real ? <Real /> : <Outlet />) };
});
vi.mock('./features/settings/billing/BillingBanner.tsx', () => ({ BillingBanner: () => null }));
vi.mock('./features/settings/printer/PrintProblems.tsx', () => ({ PrintProblems: () => null }));

const { AppRoutes } = await import('./router.tsx');
const { PAGES } = await vi.importActual<typeof import('./pages.tsx')>('./pages.tsx');

/** The demo shop (a Lanchonete): comandas and stock on, working hours off. */
const DEMO_FLAGS: Flags = { saleCommand: true, stockManagement: true, checkIsOpen: false };
/** Every flag the other way round. */
const OTHER_FLAGS: Flags = { saleCommand: false, stockManagement: false, checkIsOpen: true };

function sessionFor(typeId: UserTypeId, flags: Flags) {
  const user: SessionUser = {
    id: 100 + typeId,
    name: `Usuário ${typeId}`,
    email: `u${typeId}@teste.com.br`,
    active: true,
    profilePhotoWhatsapp: null,
    userType: { id: typeId, name: `Tipo ${typeId}` },
    client: {
      id: 7,
      name: 'Loja Teste',
      clientType: { id: 7, name: 'Lanchonete' },
      timeZone: 'America/Sao_Paulo',
      logoUrl: null,
    },
  };
  return {
    user,
    token: 'token',
    isLogged: true,
    authLoading: false,
    redirect: null,
    settingsChecklist: flags,
    whatsappInstance: null,
    shippingSettings: null,
    paymentGateway: null,
    refresh: async () => undefined,
    login: async () => undefined,
    logout: async () => undefined,
    startSession: () => undefined,
    setSettingsChecklist: () => undefined,
  };
}

const has = (set: AppRoute['allowed'] | undefined, typeId: UserTypeId) =>
  set === 'public' || (set ?? []).includes(typeId);

type Outcome = { path: string; title: string; shows: string };

/** What the table says a user type meets at a route (ROUTES.md). */
function expected(route: AppRoute, url: string, typeId: UserTypeId, flags: Flags): Outcome {
  const allowed = has(route.allowed, typeId);
  const flagOff = route.flag !== undefined && !flags[route.flag];
  if (allowed && flagOff) return { path: url, title: route.title, shows: `flag-closed:${route.flag}` };
  if (!allowed || (route.write && !route.write.includes(typeId)))
    return { path: '/not-have-permission', title: 'Sem permissão', shows: 'not-have-permission' };
  if (route.name === 'home' && (typeId === 10 || typeId === 11)) {
    const home = typeId === 10 ? '/dashboard/driver/available' : '/dashboard/driver/awaiting-collection';
    const target = ROUTES.find((r) => r.link === home)!;
    return { path: home, title: target.title, shows: target.name };
  }
  return { path: url, title: route.title, shows: route.name in PAGES ? route.name : 'under-construction' };
}

let navigate: NavigateFunction;
let pathname = '';
function Probe() {
  navigate = useNavigate();
  pathname = useLocation().pathname;
  return null;
}

/** What the screen shows: the stub page's route, the flag-closed notice, or "Em construção". */
function shown(): string {
  const page = screen.queryByTestId('page');
  if (page) return page.textContent ?? '';
  const closed = screen.queryByTestId('flag-closed');
  if (closed) return `flag-closed:${closed.textContent}`;
  if (screen.queryByText(/construção/i)) return 'under-construction';
  return `nothing (${document.body.textContent?.slice(0, 120)})`;
}

const FLAG_LABEL_PATTERN: Record<string, RegExp> = {
  saleCommand: /Comandas/,
  stockManagement: /Controle de estoque/,
  checkIsOpen: /Horário de funcionamento/,
};

/** One turn of the timers, inside act: lazy parts resolve, redirects and effects run. */
async function settle() {
  await act(async () => new Promise((done) => setTimeout(done, 0)));
}

/** Goes to a URL and waits until what is shown (path, title, page) stops changing. */
async function visit(url: string) {
  await act(async () => navigate(url));
  const state = () => `${pathname} ${document.title} ${shown()}`;
  let last = '';
  for (let i = 0; i < 100; i++) {
    await settle();
    const now = state();
    if (now === last && !now.endsWith('nothing')) return;
    last = now;
  }
}

const privateRoutes = ROUTES.filter((route) => !route.isPublic);

beforeAll(async () => {
  // The shell and the flag notice are lazy: their code is loaded once here, not during the first visit.
  await import('./layout/DashboardLayout.tsx');
  await import('./pages/FlagClosedPage.tsx');
  // The shell's own GETs (shop status) are not answered: the test reads decisions, not data.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise(() => undefined)),
  );
});
afterEach(cleanup);
afterAll(() => {
  vi.unstubAllGlobals();
});

function renderApp(typeId: UserTypeId, flags: Flags, at: string) {
  session.current = sessionFor(typeId, flags);
  return render(
    <ThemeModeProvider>
      <MemoryRouter initialEntries={[at]}>
        <Probe />
        <AppRoutes />
      </MemoryRouter>
    </ThemeModeProvider>,
  );
}

for (const [flagsName, flags] of [
  ['demo flags', DEMO_FLAGS],
  ['the other flags', OTHER_FLAGS],
] as const) {
  describe(`every route for every user type, ${flagsName}`, () => {
    for (const typeId of USER_TYPE_IDS) {
      it(`type ${typeId}: where each route leads, its title and page`, { timeout: 60_000 }, async () => {
        shell.real = false;
        renderApp(typeId, flags, '/hello');
        const failures: string[] = [];
        for (const route of privateRoutes) {
          const url = route.match === 'prefix' ? `${route.link}/1` : route.link;
          await visit(url);
          const want = expected(route, url, typeId, flags);
          let got = shown();
          if (got.startsWith('flag-closed:') && want.shows.startsWith('flag-closed:')) {
            const flag = want.shows.slice('flag-closed:'.length);
            got = FLAG_LABEL_PATTERN[flag].test(got) ? want.shows : got;
          }
          const outcome = { path: pathname, title: document.title, shows: got };
          const wanted = { ...want, title: `${want.title} | ${PRODUCT_NAME}` };
          if (JSON.stringify(outcome) !== JSON.stringify(wanted))
            failures.push(`${url}: expected ${JSON.stringify(wanted)}, got ${JSON.stringify(outcome)}`);
        }
        expect(failures).toEqual([]);
      });

      it(`type ${typeId}: the side menu`, { timeout: 60_000 }, async () => {
        shell.real = true;
        renderApp(typeId, flags, '/hello');
        await visit('/dashboard');
        const nav = screen.getByRole('navigation', { name: 'Menu principal' });
        const groups = MENU_GROUPS.map((group) => ({
          group,
          items: ROUTES.filter(
            (r) => r.menuGroup === group && has(r.allowed, typeId) && (!r.flag || flags[r.flag]),
          ).map((r) => r.menuLabel ?? r.title),
        })).filter((g) => g.items.length > 0);
        const seen = within(nav)
          .queryAllByRole('list')
          .filter((list) => list.getAttribute('aria-label'))
          .map((list) => ({
            group: list.getAttribute('aria-label'),
            items: within(list)
              .queryAllByRole('link')
              .map((link) => link.textContent),
          }));
        expect(seen).toEqual(groups);
        expect(within(nav).getByRole('link', { name: 'Início' })).toBeTruthy();
        expect(within(nav).getByRole('link', { name: 'Sair' })).toBeTruthy();
      });
    }
  });
}

describe('the table and the pages', () => {
  it('every route has a page component (none shows "Em construção")', () => {
    expect(ROUTES.filter((route) => !(route.name in PAGES)).map((route) => route.name)).toEqual([]);
  });
});
