import { expect, type Page, test } from '@playwright/test';
import { ean13 } from './fixtures';
import { apiLogin, channelJoinSent, demoEmail, loginAs as login, trackApi } from './helpers';

// Issue 13: what the shop's staff ran into on a desktop and a 390 px phone.

const stamp = Date.now().toString().slice(-7);

/** Logs in as a demo user type, leaving any earlier session first. */
async function loginAs(page: Page, typeId: Parameters<typeof login>[1]) {
  await page.context().clearCookies();
  await login(page, typeId);
}

/** POST as the demo Administrador (arranging data), expecting `status`. */
async function asAdmin(page: Page, path: string, data: Record<string, unknown>, status = 201) {
  const token = await apiLogin(page, demoEmail(1));
  const res = await page.request.post(`/v1${path}`, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.status(), await res.text()).toBe(status);
  return res.json();
}

test('customer form: no field is red before it is reached, a picked UF clears its error, one click saves', async ({
  page,
}) => {
  await loginAs(page, 1);
  await page.goto('/dashboard/customer/new');
  await page.getByLabel('Nome').fill(`Cliente Um Clique ${stamp}`);
  await page.getByRole('button', { name: 'Adicionar endereço' }).click();
  const address = page.getByTestId('address-0');
  await expect(address.locator('.Mui-error')).toHaveCount(0);
  // CEP is required and marked so.
  await expect(address.getByLabel('CEP')).toHaveAttribute('required', '');

  // Leaving UF without a pick shows its error; picking one clears it.
  const uf = address.getByRole('combobox', { name: /UF/ });
  await uf.click();
  await page.keyboard.press('Escape');
  await address.getByLabel('Logradouro').focus();
  await expect(address.getByText('O campo é obrigatório').first()).toBeVisible();
  await uf.click();
  await page.getByRole('option', { name: 'MG', exact: true }).click();
  await expect(
    address.locator('.MuiFormControl-root:has([name="addresses.0.state"]) .Mui-error'),
  ).toHaveCount(0);

  await address.getByLabel('CEP').fill('30130-000');
  await address.getByLabel('Logradouro').fill('Avenida Afonso Pena');
  await address.getByLabel('Bairro').fill('Centro');
  // Número touched and left empty: its error shows; typing clears it.
  const number = address.getByLabel('Número');
  await number.focus();
  await address.getByLabel('Cidade').focus();
  await expect(address.getByText('O campo é obrigatório')).toHaveCount(1);
  await address.getByLabel('Cidade').fill('Belo Horizonte');
  await number.fill('1000');
  // The focus is still in a field when "Salvar" is pressed: one click saves.
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(/\/dashboard\/customer$/);
  await expect(page.getByTestId('feedback-snackbar')).toContainText('Cliente cadastrado com sucesso');
});

test("the notification drawer's header and Limpar sit above the top bar and work", async ({ page }) => {
  const joined = channelJoinSent(page);
  await loginAs(page, 1);
  await expect(page.getByRole('heading', { name: /Olá/ })).toBeVisible();
  await joined;
  await asAdmin(page, '/notification', { message: `Aviso ${stamp}` }, 200);
  await expect(page.getByTestId('bell-badge')).toContainText('1');
  await page.getByRole('button', { name: 'Notificações' }).click();
  const drawer = page.getByTestId('notification-drawer');
  await expect(drawer).toContainText(`Aviso ${stamp}`);
  await expect(drawer.getByRole('heading', { name: 'Notificações' })).toBeInViewport();
  // A real click (no force): nothing covers the button.
  await drawer.getByRole('button', { name: 'Limpar' }).click();
  await expect(drawer).toContainText('Nenhuma notificação por aqui.');
});

test('PDV: F9 and the side "Finalizar (F9)" do nothing with nothing paid; an empty cash amount is the exact amount', async ({
  page,
}) => {
  const barcode = ean13(`201${stamp}01`);
  await asAdmin(page, '/product', { name: `Biscoito ${stamp}`, salePriceCents: 1250, barcode, stock: 10 });
  await loginAs(page, 4);
  const sales: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/sale')
      sales.push(request.url());
  });
  await page.goto('/dashboard/sale/pdv');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('50,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();
  await page.keyboard.type(barcode, { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  // At 1280 px the money of a line stays on one line.
  const lineTotal = page.getByTestId('pdv-line-total');
  await expect(lineTotal).toHaveText('R$ 12,50');
  const lines = await lineTotal.evaluate((cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(1);

  await page.keyboard.press('F6');
  await expect(page.getByText('Falta pagar')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Finalizar (F9)' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Finalizar venda (F9)' })).toBeDisabled();
  // Nothing is posted: not now, nor later (the one sale below is the only one counted).
  await page.keyboard.press('F9');
  expect(sales).toHaveLength(0);
  await expect(page.getByTestId('pdv-finish-error')).toHaveCount(0);

  // "Valor recebido" emptied in cash: the exact amount.
  const form = page.getByRole('form', { name: 'Adicionar pagamento' });
  await form.getByLabel('Valor recebido').fill('');
  await form.getByRole('button', { name: 'Adicionar' }).click();
  await expect(page.getByTestId('pdv-payment')).toContainText('R$ 12,50');
  await expect(page.getByTestId('pdv-paid')).toHaveText('R$ 12,50');
  await page.keyboard.press('F9');
  await expect(page.getByText(/Venda nº \d+ finalizada/)).toBeVisible();
  expect(sales).toHaveLength(1);
});

test('the PDV preselects the logged user as the seller', async ({ page }) => {
  await loginAs(page, 2);
  await page.goto('/dashboard/sale/pdv');
  // The Gerente's register may be open already (another test sold with it).
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await expect(opening.or(page.getByRole('heading', { name: 'PDV', level: 1 }))).toBeVisible();
  if (await opening.isVisible()) {
    await opening.getByLabel('Valor de abertura').fill('10,00');
    await opening.getByRole('button', { name: 'Abrir caixa' }).click();
    await expect(opening).toBeHidden();
  }
  await page.keyboard.press('F4');
  await expect(page.getByRole('combobox', { name: /Vendedor da venda/ })).toContainText(
    'Gerente Demo (quem está no caixa)',
  );
});

test('read-only users get no add button and no create page, and can open a coupon', async ({ page }) => {
  const code = `VER${stamp}`;
  await asAdmin(page, '/coupon', {
    code,
    discountType: 'PERCENTAGE',
    discountValue: 5,
    startDate: new Date().toISOString().slice(0, 10),
    endDate: '2099-12-31',
  });
  const fab = (title: string) => page.locator(`a.MuiFab-root[aria-label="${title}"]`);
  // The Administrador writes: the button is there (so its absence below means something).
  await loginAs(page, 1);
  await page.goto('/dashboard/coupon');
  await expect(fab('Novo cupom')).toBeVisible();

  await loginAs(page, 3);
  for (const [path, title] of [
    ['/dashboard/coupon', 'Novo cupom'],
    ['/dashboard/product', 'Novo produto'],
    ['/dashboard/user', 'Novo usuário'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(fab(title)).toHaveCount(0);
  }
  await page.goto('/dashboard/coupon/new');
  await expect(page).toHaveURL(/not-have-permission/);
  await page.goto('/dashboard/coupon');
  await page.getByRole('link', { name: `Ver ${code}` }).click();
  await expect(page.getByText('Você pode ver este cupom, mas não alterá-lo.')).toBeVisible();

  await loginAs(page, 6);
  for (const [path, title] of [
    ['/dashboard/coupon', 'Novo cupom'],
    ['/dashboard/customer', 'Novo cliente'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(fab(title)).toHaveCount(0);
  }
});

test('at 390 px the product list shows each product as a card with its price, stock and actions', async ({
  page,
}) => {
  const name = `Sabonete Fone ${stamp}`;
  await asAdmin(page, '/product', { name, salePriceCents: 1250, stock: 7 });
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, 1);
  await page.goto('/dashboard/product');
  // Filters wait behind a button; the search stays.
  await expect(page.getByLabel('Categoria')).toHaveCount(0);
  await page.getByLabel('Buscar').fill(name);
  const row = page.getByTestId('product-row');
  await expect(row).toHaveCount(1);
  for (const text of ['R$ 12,50', '7 un']) await expect(row).toContainText(text);
  // Each line of the card is labelled by its column (a ::before with the header's text).
  const labels = await row
    .locator('td')
    .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
  expect(labels).toEqual(expect.arrayContaining(['"Preço"', '"Estoque"', '"Ações"']));
  await expect(page.getByRole('table', { name: 'Produtos' }).locator('thead')).toBeHidden();
  await expect(row.getByText('R$ 12,50')).toBeInViewport();
  await expect(row.getByRole('link', { name: `Editar ${name}` })).toBeInViewport();
  await expect(row.getByRole('button', { name: `Excluir ${name}` })).toBeInViewport();
  // Nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole('button', { name: 'Filtros' }).click();
  await expect(page.getByLabel('Categoria')).toBeVisible();
});

test('a page closed by a setting says which one, with a link for who may change it', async ({ page }) => {
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/working-hour');
  const closed = page.getByTestId('flag-closed');
  await expect(closed).toContainText('Horário de funcionamento');
  await expect(closed.getByRole('link', { name: /Ativar/ })).toHaveAttribute(
    'href',
    '/dashboard/settings/system-client',
  );
  await loginAs(page, 3);
  await page.goto('/dashboard/settings/working-hour');
  await expect(page.getByTestId('flag-closed')).toContainText('Peça ao administrador');
});

test("the Garçom's home asks nothing it may not read and shows his own tabs, not the shop's sales (issue 30)", async ({
  page,
}) => {
  const forbidden: string[] = [];
  const errors: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 403) forbidden.push(response.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const api = trackApi(page);
  await loginAs(page, 5);
  await expect(page.getByTestId('home-tables-open')).toContainText('Suas comandas abertas');
  await expect(page.getByTestId('home-register')).toHaveCount(0);
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(menu.getByRole('link', { name: 'Comandas' })).toBeVisible();
  for (const name of ['Vendas', 'Fechar caixa', 'Orçamentos', 'Cupons', 'Frete Melhor Envio'])
    await expect(menu.getByRole('link', { name, exact: true })).toHaveCount(0);
  await api.idle();
  expect(forbidden).toEqual([]);
  expect(errors).toEqual([]);
  await page.goto('/dashboard/sale');
  await expect(page).toHaveURL(/not-have-permission/);
});

test('the home shows the day: sales, ticket médio, register and low stock', async ({ page }) => {
  await loginAs(page, 1);
  await expect(page.getByTestId('home-today')).toContainText('ticket médio');
  await expect(page.getByTestId('home-month')).toContainText('Vendas no mês');
  await expect(page.getByTestId('home-register')).toContainText('Seu caixa');
  await page.getByTestId('home-low-stock').click();
  await expect(page).toHaveURL(/\/dashboard\/product\?lowStock=true/);
});
