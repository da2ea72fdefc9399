import AxeBuilder from '@axe-core/playwright';
import {
  type AppRoute,
  canUse,
  homeFor,
  isAllowed,
  isEnabled,
  menuFor,
  pageTitle,
  ROUTES,
} from '@balcao/core/routes';
import { USER_TYPE_IDS, type UserTypeId } from '@balcao/core/userTypes';
import { expect, type Page, test } from '@playwright/test';
import { apiLogin, channelJoinSent, DEMO_USERS, demoEmail, login, loginAs } from './helpers';

// The demo shop is a Lanchonete: comandas and stock on, working hours off.
const DEMO_FLAGS = { saleCommand: true, stockManagement: true, checkIsOpen: false };

test.describe('login and logout', () => {
  test('a right login lands on /dashboard with the page title', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Login | Balcão');
    await expect(page.getByRole('heading', { name: 'Área Restrita' })).toBeVisible();
    await page.getByLabel('Email').fill('  administrador@demo.com.br ');
    await page.getByLabel('Senha', { exact: true }).fill('demo1234');
    await page.getByRole('button', { name: 'Mostrar senha' }).click();
    await expect(page.getByLabel('Senha', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page).toHaveTitle('Início | Balcão');
  });

  test('a wrong password shows the spec alert and disables inputs while sending', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('administrador@demo.com.br');
    await page.getByLabel('Senha', { exact: true }).fill('errada');
    await page.route('**/v1/login', async (route) => {
      await new Promise((r) => setTimeout(r, 500));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByLabel('Email')).toBeDisabled();
    await expect(page.getByRole('progressbar')).toBeVisible();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Ops!');
    await expect(alert).toContainText('Ocorreu um erro tentar efetuar login');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('logout says Saindo..., clears the session and goes to /login', async ({ page, context }) => {
    await loginAs(page, 1);
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'balcao_token')).toBeUndefined();
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an invalid stored token is sent to /logout and then /login', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'balcao_token', value: 'not-a-token', url: baseURL! }]);
    await page.goto('/dashboard/coupon');
    await expect(page).toHaveURL(/\/login$/);
  });
});

type Outcome = { path: string; title: string };

/** Where a user type lands at a route of the table, and the title it reads there. */
function outcomeOf(route: AppRoute, url: string, typeId: UserTypeId): Outcome {
  // A page closed by a setting stays at its address and says which setting (issue 13); a page that
  // only creates is closed to who may not write (`canUse`).
  const flagClosed = isAllowed(route, typeId) && !isEnabled(route, DEMO_FLAGS);
  if (!flagClosed && !canUse(route, typeId, DEMO_FLAGS))
    return { path: '/not-have-permission', title: pageTitle('Sem permissão') };
  if (route.name === 'home' && homeFor(typeId) !== '/dashboard') {
    const home = homeFor(typeId);
    return { path: home, title: pageTitle(ROUTES.find((r) => r.link === home)!.title) };
  }
  return { path: url, title: pageTitle(route.title) };
}

const urlOf = (route: AppRoute) => (route.match === 'prefix' ? `${route.link}/1` : route.link);
const PRIVATE_ROUTES = ROUTES.filter((route) => !route.isPublic);

/**
 * Opens each route by its address (a reload, the page's own code from the build) and checks where it
 * lands, the title shown and that no error screen replaced the page. Every route for every user type
 * is checked without a browser in apps/web/src/routeTable.test.tsx (the real router, guard and menu);
 * here the pages themselves open in Chromium.
 */
async function visit(page: Page, routes: readonly AppRoute[], typeId: UserTypeId) {
  const failures: string[] = [];
  const crashes: string[] = [];
  const onError = (error: Error) => crashes.push(`${page.url()}: ${error.message}`);
  page.on('pageerror', onError);
  for (const route of routes) {
    const url = urlOf(route);
    await page.goto(url);
    const want = outcomeOf(route, url, typeId);
    try {
      await expect(page).toHaveURL((u) => u.pathname === want.path, { timeout: 5000 });
      await expect(page).toHaveTitle(want.title, { timeout: 5000 });
      await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toHaveCount(0);
    } catch {
      failures.push(
        `${url}: expected ${want.path} "${want.title}", got ${new URL(page.url()).pathname} "${await page.title()}"` +
          ((await page.getByRole('heading', { name: 'Unexpected Application Error!' }).count())
            ? ' (error screen)'
            : ''),
      );
    }
  }
  page.off('pageerror', onError);
  return [...failures, ...crashes];
}

test('every page of the table opens in the browser once, as a user who may open it', async ({ page }) => {
  test.setTimeout(180_000);
  // Each route by the first user type that may use it: the Administrador for nearly all, the
  // Entregador for the driver pages. A page closed by a setting shows its notice.
  const byType = new Map<UserTypeId, AppRoute[]>();
  for (const route of PRIVATE_ROUTES) {
    const typeId =
      USER_TYPE_IDS.find((id) => canUse(route, id, DEMO_FLAGS)) ??
      USER_TYPE_IDS.find((id) => isAllowed(route, id))!;
    byType.set(typeId, [...(byType.get(typeId) ?? []), route]);
  }
  for (const [typeId, routes] of byType) {
    await page.context().clearCookies();
    await loginAs(page, typeId);
    expect(await visit(page, routes, typeId)).toEqual([]);
  }
});

/**
 * A few routes per user type, a different slice of the table each day (WALK_SEED=n repeats one):
 * home, a page the type may use, a page closed to it and, for who sees one, a page closed by a setting.
 */
const SEED = Number(process.env.WALK_SEED ?? Math.floor(Date.now() / 86_400_000));

function sampleFor(typeId: UserTypeId): AppRoute[] {
  const pick = (routes: AppRoute[], salt: number) =>
    routes.length ? [routes[(SEED * 31 + typeId * 7 + salt) % routes.length]] : [];
  const home = ROUTES.find((route) => route.name === 'home')!;
  const rest = PRIVATE_ROUTES.filter((route) => route !== home);
  const opens = rest.filter((route) => canUse(route, typeId, DEMO_FLAGS));
  const closed = rest.filter((route) => !isAllowed(route, typeId) || !canUse(route, typeId, DEMO_FLAGS));
  const byFlag = closed.filter((route) => isAllowed(route, typeId) && !isEnabled(route, DEMO_FLAGS));
  const byPermission = closed.filter((route) => !byFlag.includes(route));
  return [home, ...pick(opens, 0), ...pick(byPermission, 1), ...pick(byFlag, 2)];
}

test.describe('each demo user walks a sample of the route table', () => {
  for (const { id, email } of DEMO_USERS) {
    test(`type ${id} (${email})`, async ({ page }) => {
      const sample = sampleFor(id);
      test.info().annotations.push({ type: 'sample', description: sample.map(urlOf).join(' ') });
      await login(page, email);
      expect(await visit(page, sample, id)).toEqual([]);
    });
  }
});

test('menu groups follow the user type and the client flags', async ({ page }) => {
  for (const typeId of [1, 5, 6, 9, 10] as UserTypeId[]) {
    await page.context().clearCookies();
    await loginAs(page, typeId);
    // The garçom has no sales list (issue 30): his page is the waiter PDV.
    await page.goto(typeId === 5 ? '/dashboard/sale/waiter-pdv' : '/dashboard/sale');
    if (typeId === 10) await page.goto('/dashboard/driver/available');
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    const expected = menuFor(typeId, DEMO_FLAGS);
    for (const { group, items } of expected) {
      await expect(nav.getByRole('list', { name: group })).toBeVisible();
      for (const item of items)
        await expect(nav.getByRole('link', { name: item.title, exact: true })).toBeVisible();
    }
    for (const group of [
      'Clientes',
      'Campanhas',
      'Produtos',
      'Vendas',
      'Orçamentos',
      'Estoque',
      'Cupons',
      'Frete',
      'Usuários',
      'Configurações',
    ]) {
      if (!expected.some((g) => g.group === group))
        await expect(nav.getByRole('list', { name: group })).toHaveCount(0);
    }
    // Flags: working hours (checkIsOpen off in the demo) is never listed.
    await expect(nav.getByRole('link', { name: 'Horário de funcionamento' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Sair' })).toBeVisible();
  }
});

test('the comandas item appears only when the client has saleCommand on', async ({ page, request }) => {
  const res = await request.post('/v1/system-client', {
    data: {
      systemClient: {
        name: 'Loja de Roupas Teste',
        document: '33000167000101',
        clientTypeId: 2,
        phone: '11987654321',
      },
      user: {
        name: 'Dona Ana',
        email: 'ana.flags@teste.com.br',
        password: 'senha-forte-1',
        passwordConfirmation: 'senha-forte-1',
      },
    },
  });
  expect(res.status()).toBe(201);
  await login(page, 'ana.flags@teste.com.br', 'senha-forte-1');
  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(nav.getByRole('link', { name: 'PDV', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Comandas' })).toHaveCount(0);
  await page.goto('/dashboard/sale/command');
  // A page closed by a setting says which one and links to it for the Administrador (issue 13).
  await expect(page.getByTestId('flag-closed')).toContainText('Comandas');
  await expect(page.getByTestId('flag-closed').getByRole('link', { name: /Ativar/ })).toHaveAttribute(
    'href',
    '/dashboard/settings/system-client',
  );
});

test('the theme toggle survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await loginAs(page, 2);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bg();
  await page.getByRole('button', { name: 'Ativar tema escuro' }).click();
  await expect.poll(bg).not.toBe(light);
  const dark = await bg();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Ativar tema claro' })).toBeVisible();
  expect(await bg()).toBe(dark);
  await page.getByRole('button', { name: 'Ativar tema claro' }).click();
  await expect.poll(bg).toBe(light);
});

test('a notification pushed by the server raises the badge and shows a toast for 3 s', async ({ page }) => {
  const joined = channelJoinSent(page);
  await loginAs(page, 4);
  await expect(page.getByRole('heading', { name: /Olá/ })).toBeVisible();
  const token = await apiLogin(page, demoEmail(1));
  await joined;
  const res = await page.request.post('/v1/notification', {
    headers: { authorization: `Bearer ${token}` },
    data: { message: 'Novo pedido de delivery #42', alertColor: 'success' },
  });
  expect(res.status()).toBe(200);
  const toast = page.getByTestId('notification-toast');
  await expect(toast).toContainText('Novo pedido de delivery #42');
  await expect(page.getByTestId('bell-badge')).toContainText('1');
  const shownAt = Date.now();
  // The toast sits under the top bar (issue 30: at 1280 it covered the bell and the account menu).
  const bar = await page.getByRole('banner').boundingBox();
  const toastBox = await toast.boundingBox();
  expect(toastBox?.y ?? 0).toBeGreaterThanOrEqual((bar?.y ?? 0) + (bar?.height ?? 0));
  await expect(toast).toBeHidden({ timeout: 6000 });
  const shownFor = Date.now() - shownAt;
  expect(shownFor).toBeGreaterThan(2000);
  expect(shownFor).toBeLessThan(4500);
  await page.getByRole('button', { name: 'Notificações' }).click();
  await expect(page.getByTestId('notification-drawer')).toContainText('Novo pedido de delivery #42');
  await page.keyboard.press('Escape');
  // Read: the badge's number is gone from the screen (MUI keeps the last number in the hidden badge).
  await expect(page.getByTestId('bell-badge').getByText('1', { exact: true })).toBeHidden();
  // A dismissed toast is not shown again: not when the drawer has closed and the shell re-rendered.
  await expect(page.getByTestId('notification-drawer')).toBeHidden();
  await expect(toast).toBeHidden();
});

test.describe('create account', () => {
  test('shows validation errors of both steps', async ({ page }) => {
    await page.goto('/criar-conta');
    await expect(page).toHaveTitle('Criar conta | Balcão');
    await page.getByLabel('CPF ou CNPJ').fill('11.222.333/0001-82');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByText('CPF ou CNPJ inválido')).toBeVisible();
    await expect(page.getByText('Selecione o segmento')).toBeVisible();
    await expect(page.getByText('O campo é obrigatório').first()).toBeVisible();
    await page.getByLabel('Nome da empresa').fill('Padaria Pão Quente');
    await page.getByLabel('CPF ou CNPJ').fill('42318949000184');
    await expect(page.getByLabel('CPF ou CNPJ')).toHaveValue('42.318.949/0001-84');
    await page.getByLabel('Segmento').click();
    await page.getByRole('option', { name: 'Padaria' }).click();
    await page.getByLabel('WhatsApp').fill('11912345678');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByLabel('Seu nome').fill('José');
    await page.getByLabel('Email').fill('jose@padaria.com.br');
    await page.getByLabel('Senha', { exact: true }).fill('12345678');
    await page.getByLabel('Confirmação da senha').fill('87654321');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await expect(page.getByText('As senhas não conferem')).toBeVisible();
  });

  test('happy path: the owner is logged in as Administrador with the segment flags', async ({ page }) => {
    await page.goto('/criar-conta');
    await page.getByLabel('Nome da empresa').fill('Pizzaria Bella');
    await page.getByLabel('CPF ou CNPJ').fill('12ABC34501DE35');
    await page.getByLabel('Segmento').click();
    await page.getByRole('option', { name: 'Pizzaria' }).click();
    await page.getByLabel('WhatsApp').fill('(21) 99876-5432');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByLabel('Seu nome').fill('Giulia Rossi');
    await page.getByLabel('Email').fill('giulia@bella.com.br');
    await page.getByLabel('Senha', { exact: true }).fill('pizza-boa-123');
    await page.getByLabel('Confirmação da senha').fill('pizza-boa-123');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Olá, Giulia!' })).toBeVisible();
    await expect(page.getByText('Pizzaria Bella · Administrador')).toBeVisible();
    // Food segment: comandas on.
    await expect(
      page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Comandas' }),
    ).toBeVisible();
  });
});

test('a 390x844 viewport shows the bottom bar and the overlay menu', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, 3);
  const bar = page.getByTestId('bottom-bar');
  await expect(bar).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Início' })).toBeVisible();
  await expect(bar.getByRole('link', { name: 'PDV' })).toBeVisible();
  await expect(page.getByTestId('side-menu')).toHaveCount(0);
  await bar.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByTestId('mobile-menu');
  await expect(menu).toBeVisible();
  const box = await menu.boundingBox();
  expect(Math.round(box?.width ?? 0)).toBe(390);
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
  await menu.getByRole('link', { name: 'Vendas', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/sale$/);
  await expect(menu).toBeHidden();
  // A dialog covers the bottom bar: its buttons at the foot of the phone's screen stay reachable.
  await page.getByRole('button', { name: 'Conta do usuário' }).click();
  await page.getByRole('menuitem', { name: 'Alterar senha' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  const barOnTop = await page.evaluate(
    () => !!document.elementFromPoint(195, 820)?.closest('[data-testid="bottom-bar"]'),
  );
  expect(barOnTop).toBe(false);
});

test('at 390 px the top bar keeps room for the shop\'s name (issue 30: cut to "K…")', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, 1);
  const name = page.getByTestId('topbar-shop-name');
  await expect(name).toBeVisible();
  const room = await name.evaluate((el) => ({ width: el.clientWidth, needs: el.scrollWidth }));
  expect(room.width).toBeGreaterThanOrEqual(110);
  await expect(page.getByRole('button', { name: 'Alternar menu lateral' })).toBeHidden();
  await expect(page.getByTestId('bottom-bar').getByRole('button', { name: 'Menu' })).toBeVisible();
});

test('the bottom bar hides PDV for a Estoquista', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, 6);
  await expect(page.getByTestId('bottom-bar').getByRole('link', { name: 'Início' })).toBeVisible();
  await expect(page.getByTestId('bottom-bar').getByRole('link', { name: 'PDV' })).toHaveCount(0);
});

test('/404 and unknown routes', async ({ page }) => {
  await page.goto('/nao-existe');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('Ops! Página não encontrada')).toBeVisible();
  await page.goto('/hello');
  await expect(page).toHaveTitle('Hello | Balcão');
});

test.describe('accessibility (axe): no serious or critical violation', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme} theme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const check = async (label: string) => {
        const result = await new AxeBuilder({ page }).analyze();
        const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(
          bad.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([]);
      };
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Área Restrita' })).toBeVisible();
      await check('/login');
      await page.goto('/criar-conta');
      await expect(page.getByRole('heading', { name: 'Criar conta' })).toBeVisible();
      await check('/criar-conta');
      await page.goto('/404');
      await check('/404');
      await loginAs(page, 1);
      await expect(page.getByRole('heading', { name: /Olá/ })).toBeVisible();
      await check('/dashboard');
    });
  }
});

test.describe('a page whose code is slow to arrive', () => {
  // The service worker would serve the chunk from its cache, past the delayed route.
  test.use({ serviceWorkers: 'block' });
  test('the current page stays, with a progress bar, until the next page shows', async ({ page }) => {
    await loginAs(page, 1);
    const home = page.getByRole('heading', { name: /^Olá/ });
    await expect(home).toBeVisible();
    await page.route(/\/assets\/CouponListPage-[^/]+\.js$/, async (route) => {
      await new Promise((done) => setTimeout(done, 1500));
      await route.continue();
    });
    await page.getByTestId('side-menu').getByRole('link', { name: 'Cupons' }).click();
    const progress = page.getByRole('progressbar', { name: 'Carregando a página' });
    await expect(progress).toBeVisible();
    await expect(home).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Cupons' })).toBeVisible();
    await expect(progress).toBeHidden();
    await expect(home).toBeHidden();
    await expect(page).toHaveTitle('Cupons | Balcão');
  });
});
