import AxeBuilder from '@axe-core/playwright';
import { addDays, formatDateBr } from '@balcao/core/date';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { expect, type Page, test } from '@playwright/test';
import { apiLogin, DEMO_PASSWORD, demoEmail, login, loginAs } from './helpers';

const today = dateIn(DEFAULT_TIME_ZONE);
let seq = 0;
const newCode = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${++seq}`;

/** Arranges a coupon of the demo shop through the API. */
async function createCouponViaApi(page: Page, overrides: Record<string, unknown> = {}) {
  const token = await apiLogin(page, demoEmail(1));
  const res = await page.request.post('/v1/coupon', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      code: newCode('API'),
      discountType: 'PERCENTAGE',
      discountValue: 10,
      startDate: today,
      endDate: addDays(today, 30),
      ...overrides,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: number; code: string };
}

/** A valid CNPJ from 12 random digits (check digits computed). */
function randomCnpj(): string {
  const base = Array.from({ length: 12 }, () => Math.floor(Math.random() * 10)).join('');
  const digit = (s: string, weights: number[]) => {
    const r = weights.reduce((sum, w, i) => sum + Number(s[i]) * w, 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = digit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = digit(`${base}${d1}`, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base}${d1}${d2}`;
}

const card = (page: Page, code: string) => page.getByRole('listitem', { name: `Cupom ${code}` });
const snackbar = (page: Page) => page.getByTestId('feedback-snackbar');

test.describe('coupon list', () => {
  test('a new shop sees the empty state "Nenhum cupom foi encontrado"', async ({ page }) => {
    const email = `cupom-${Date.now()}@teste.com.br`;
    const res = await page.request.post('/v1/system-client', {
      data: {
        systemClient: {
          name: 'Loja Sem Cupons',
          document: randomCnpj(),
          clientTypeId: 1,
          phone: '11987654321',
        },
        user: { name: 'Dona da Loja', email, password: DEMO_PASSWORD, passwordConfirmation: DEMO_PASSWORD },
      },
    });
    expect(res.status()).toBe(201);
    await login(page, email);
    await page.goto('/dashboard/coupon');
    await expect(page).toHaveTitle('Cupons | Balcão');
    await expect(page.getByText('Nenhum cupom foi encontrado')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Adicionar Cupom' })).toBeVisible();
  });

  test('shows "Carregando..." then the demo coupons as cards with discount and validity', async ({
    page,
  }) => {
    await loginAs(page, 1);
    await page.route('**/v1/coupon/client/*', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.goto('/dashboard/coupon');
    await expect(page.getByText('Carregando...')).toBeVisible();
    const welcome = card(page, 'BEMVINDO10');
    await expect(welcome).toContainText('10%');
    await expect(welcome).toContainText(
      `Válido de ${formatDateBr(today)} até ${formatDateBr(addDays(today, 365))}`,
    );
    await expect(welcome).toContainText('Até 1 uso por cliente');
    await expect(welcome.getByRole('link', { name: 'Editar' })).toBeVisible();
    await expect(welcome.getByRole('button', { name: 'Excluir' })).toBeVisible();
    const fixed = card(page, 'DESCONTO5');
    await expect(fixed).toContainText('R$ 5,00');
    await expect(fixed).toContainText('Compra mínima: R$ 30,00');
    await expect(card(page, 'VIP20')).toContainText('Uso único');
  });

  test('shows an error state when the list cannot load', async ({ page }) => {
    await loginAs(page, 1);
    await page.route('**/v1/coupon/client/*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, message: 'Ocorreu um erro inesperado. Tente novamente.' }),
      }),
    );
    await page.goto('/dashboard/coupon');
    await expect(page.getByRole('alert')).toContainText('Não foi possível carregar os cupons.', {
      timeout: 15_000,
    });
    await page.unroute('**/v1/coupon/client/*');
    await page.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(card(page, 'BEMVINDO10')).toBeVisible();
  });

  test('a user without the coupon write role sees the list read-only', async ({ page }) => {
    await loginAs(page, 3); // Vendedor
    await page.goto('/dashboard/coupon');
    await expect(card(page, 'BEMVINDO10')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Adicionar Cupom' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Editar' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Excluir' })).toHaveCount(0);
  });

  test('deletes after a confirmation, shows "Excluindo..." and the coupon stays gone after reload', async ({
    page,
  }) => {
    const coupon = await createCouponViaApi(page);
    await loginAs(page, 1);
    await page.goto('/dashboard/coupon');
    await card(page, coupon.code).getByRole('button', { name: 'Excluir' }).click();
    const dialog = page.getByRole('dialog', { name: 'Excluir cupom' });
    await expect(dialog).toContainText(`Deseja excluir o cupom ${coupon.code}?`);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await expect(card(page, coupon.code)).toBeVisible();

    await page.route('**/v1/coupon/*', async (route) => {
      if (route.request().method() === 'DELETE') await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await card(page, coupon.code).getByRole('button', { name: 'Excluir' }).click();
    await page
      .getByRole('dialog', { name: 'Excluir cupom' })
      .getByRole('button', { name: 'Excluir' })
      .click();
    await expect(page.getByText('Excluindo...')).toBeVisible();
    await expect(card(page, coupon.code)).toHaveCount(0);
    await expect(card(page, 'BEMVINDO10')).toBeVisible();
    await page.reload();
    await expect(card(page, 'BEMVINDO10')).toBeVisible();
    await expect(card(page, coupon.code)).toHaveCount(0);
  });

  test('a failed delete silently reloads the list', async ({ page }) => {
    const coupon = await createCouponViaApi(page);
    await loginAs(page, 1);
    await page.goto('/dashboard/coupon');
    await page.route('**/v1/coupon/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"falhou"}' })
        : route.continue(),
    );
    await card(page, coupon.code).getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
    await expect(card(page, coupon.code)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test.describe('coupon form', () => {
  test('creates a coupon, says so, shows "Redirecionando..." and opens its edit page 3 s later', async ({
    page,
  }) => {
    await loginAs(page, 1);
    await page.goto('/dashboard/coupon');
    await page.getByRole('link', { name: 'Adicionar Cupom' }).click();
    await expect(page).toHaveURL(/\/dashboard\/coupon\/new$/);
    await expect(page).toHaveTitle('Novo cupom | Balcão');
    // Spec defaults: percentage, value 0; help texts for the zeros.
    await expect(page.getByRole('combobox', { name: 'Tipo de desconto' })).toContainText('Porcentagem (%)');
    const value = page.getByLabel('Valor do desconto');
    await expect(value).toHaveValue('0');
    await expect(page.getByText('0 = ilimitado')).toBeVisible();
    await expect(page.getByText('0 = sem valor mínimo')).toBeVisible();

    const code = newCode('WEB');
    await page.getByLabel('Código').fill(code.toLowerCase());
    await expect(page.getByLabel('Código')).toHaveValue(code);
    await page.getByRole('combobox', { name: 'Tipo de desconto' }).click();
    await page.getByRole('option', { name: 'Valor fixo (R$)' }).click();
    // Money input: digits and one comma, at most 2 decimals, R$ prefix.
    await value.fill('');
    await value.pressSequentially('12a,5,67');
    await expect(value).toHaveValue('12,56');
    await expect(page.getByText('R$', { exact: true }).first()).toBeVisible();
    await page.getByLabel('Valor mínimo da venda').fill('50,5');
    await page.getByLabel('Data de início').fill(today);
    await page.getByLabel('Data de fim').fill(addDays(today, 10));
    await page.getByLabel('Máximo de usos por cliente').fill('2');
    await page.getByLabel('Uso único').check();

    await page.route('**/v1/coupon', async (route) => {
      await new Promise((r) => setTimeout(r, 500));
      await route.continue();
    });
    const posted = page.waitForRequest((r) => r.url().endsWith('/v1/coupon') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(page.getByRole('button', { name: 'Cadastrando...' })).toBeVisible();
    // Comma became dot: numbers in the payload, plus status active and the client.
    const body = (await posted).postDataJSON();
    expect(body).toMatchObject({
      code,
      discountType: 'FIXED_AMOUNT',
      discountValue: 12.56,
      minSaleAmount: 50.5,
      maxUsesPerUser: 2,
      isSingleUse: true,
      status: 'active',
      client: { id: expect.any(Number) },
    });

    await expect(snackbar(page)).toContainText('Cupom criado com sucesso');
    const shownAt = Date.now();
    await expect(page.getByRole('button', { name: 'Redirecionando...' })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/coupon\/new$/);
    await page.waitForURL(/\/dashboard\/coupon\/edit\/\d+$/, { timeout: 6000 });
    // shownAt is when the test saw the snackbar, which on a loaded machine can trail its appearance
    // by several hundred ms: the lower bound allows for it (the page stayed on /new that long).
    const waited = Date.now() - shownAt;
    expect(waited).toBeGreaterThan(2000);
    expect(waited).toBeLessThan(4500);
    await expect(page).toHaveTitle('Editar cupom | Balcão');
    await expect(page.getByLabel('Código')).toHaveValue(code);
    await expect(page.getByLabel('Valor do desconto')).toHaveValue('12,56');
    await expect(page.getByLabel('Valor mínimo da venda')).toHaveValue('50,50');

    // The list shows it, also after a reload.
    await page.goto('/dashboard/coupon');
    await expect(card(page, code)).toContainText('R$ 12,56');
    await page.reload();
    await expect(card(page, code)).toContainText(`até ${formatDateBr(addDays(today, 10))}`);
  });

  test('edits a coupon and stays on the page with "Cupom editado com sucesso"', async ({ page }) => {
    const coupon = await createCouponViaApi(page, { discountValue: 10 });
    await loginAs(page, 2); // Gerente may write coupons too.
    await page.goto('/dashboard/coupon');
    await card(page, coupon.code).getByRole('link', { name: 'Editar' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/coupon/edit/${coupon.id}$`));
    const value = page.getByLabel('Valor do desconto');
    await expect(value).toHaveValue('10');
    await value.fill('15,5');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(snackbar(page)).toContainText('Cupom editado com sucesso');
    // The snackbar hides by itself after 6 s, and the page is still the edit page then (a create
    // redirects after 3 s; an edit never does).
    await expect(snackbar(page)).toBeHidden({ timeout: 9000 });
    await expect(page).toHaveURL(new RegExp(`/dashboard/coupon/edit/${coupon.id}$`));
    // Saving again works (the form took the new updatedAt).
    await value.fill('16');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(snackbar(page)).toContainText('Cupom editado com sucesso');
    await page.reload();
    await expect(page.getByLabel('Valor do desconto')).toHaveValue('16');
    await page.goto('/dashboard/coupon');
    await expect(card(page, coupon.code)).toContainText('16%');
  });

  test('shows each validation message of the spec', async ({ page }) => {
    await loginAs(page, 1);
    await page.goto('/dashboard/coupon/new');
    const submit = page.getByRole('button', { name: 'Cadastrar' });
    const helper = (label: string) =>
      page.getByLabel(label).locator('xpath=ancestor::div[contains(@class,"MuiFormControl-root")][1]');

    await page.getByRole('combobox', { name: 'Tipo de desconto' }).click();
    await page.getByRole('option', { name: 'Selecione' }).click();
    await page.getByLabel('Valor do desconto').fill('');
    await page.getByLabel('Data de início').fill('');
    await page.getByLabel('Data de fim').fill('');
    await page.getByLabel('Máximo de usos por cliente').fill('-1');
    await submit.click();
    await expect(helper('Código')).toContainText('O código é obrigatório e deve ter no mínimo 3 caracteres');
    await expect(page.getByText('Selecione um tipo de desconto válido')).toBeVisible();
    await expect(helper('Valor do desconto')).toContainText('O campo é obrigatório');
    await expect(helper('Data de início')).toContainText('A data de início é obrigatória');
    await expect(helper('Data de fim')).toContainText('A data de fim é obrigatória');
    await expect(helper('Máximo de usos por cliente')).toContainText(
      'O número máximo de usos deve ser no mínimo 0',
    );

    await page.getByLabel('Código').fill('AB');
    await expect(helper('Código')).toContainText('no mínimo 3 caracteres');
    await page.getByLabel('Código').fill('ABC');
    await expect(helper('Código')).not.toContainText('no mínimo 3 caracteres');

    await page.getByRole('combobox', { name: 'Tipo de desconto' }).click();
    await page.getByRole('option', { name: 'Porcentagem (%)' }).click();
    await page.getByLabel('Valor do desconto').fill('0');
    await expect(helper('Valor do desconto')).toContainText('O desconto deve ser maior que 0');
    await page.getByLabel('Valor do desconto').fill('150');
    await expect(helper('Valor do desconto')).toContainText(
      'O percentual de desconto deve ser no máximo 100',
    );
    await page.getByLabel('Valor do desconto').fill('100');
    await expect(helper('Valor do desconto')).not.toContainText('O percentual');

    await page.getByLabel('Data de início').fill(addDays(today, -5));
    await page.getByLabel('Data de fim').fill(addDays(today, -1));
    await expect(helper('Data de fim')).toContainText('A data de fim deve ser maior que ontem');
    await page.getByLabel('Data de fim').fill(today);
    await expect(helper('Data de fim')).not.toContainText('maior que ontem');

    await page.getByLabel('Data de início').fill(addDays(today, 5));
    await page.getByLabel('Data de fim').fill(addDays(today, 3));
    await submit.click();
    await expect(helper('Data de fim')).toContainText('A data de fim deve ser posterior à data de início');

    await page.getByLabel('Máximo de usos por cliente').fill('0');
    await expect(helper('Máximo de usos por cliente')).toContainText('0 = ilimitado');
    // Nothing was sent while the form was invalid.
    await expect(page).toHaveURL(/\/dashboard\/coupon\/new$/);
  });

  test('a duplicate code shows "Erro ao criar cupom" with the server message', async ({ page }) => {
    const existing = await createCouponViaApi(page);
    await loginAs(page, 1);
    await page.goto('/dashboard/coupon/new');
    await page.getByLabel('Código').fill(existing.code.toLowerCase());
    await page.getByLabel('Valor do desconto').fill('5');
    await page.getByLabel('Data de fim').fill(addDays(today, 3));
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(snackbar(page)).toContainText('Erro ao criar cupom');
    await expect(snackbar(page)).toContainText('Já existe um cupom com este código');
    await expect(page).toHaveURL(/\/dashboard\/coupon\/new$/);
  });

  test('an edit failure without a server message says "Ocorreu um erro inesperado"', async ({ page }) => {
    const coupon = await createCouponViaApi(page);
    await loginAs(page, 1);
    await page.goto(`/dashboard/coupon/edit/${coupon.id}`);
    await expect(page.getByLabel('Código')).toHaveValue(coupon.code);
    await page.route(`**/v1/coupon/${coupon.id}`, (route) =>
      route.request().method() === 'PUT' ? route.fulfill({ status: 502, body: '' }) : route.continue(),
    );
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(snackbar(page)).toContainText('Erro ao editar cupom');
    await expect(snackbar(page)).toContainText('Ocorreu um erro inesperado');
  });

  test("another shop's coupon id shows Cupom não encontrado", async ({ page }) => {
    await loginAs(page, 1);
    await page.goto('/dashboard/coupon/edit/999999');
    await expect(page.getByRole('alert')).toContainText('Cupom não encontrado');
  });
});

test.describe('coupon pages accessibility (axe): no serious or critical violation', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme} theme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await loginAs(page, 1);
      const check = async (label: string) => {
        const result = await new AxeBuilder({ page }).analyze();
        const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(
          bad.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([]);
      };
      await page.goto('/dashboard/coupon');
      await expect(card(page, 'BEMVINDO10')).toBeVisible();
      await check('list');
      await page.goto('/dashboard/coupon/new');
      await page.getByRole('button', { name: 'Cadastrar' }).click();
      await expect(page.getByText('O código é obrigatório e deve ter no mínimo 3 caracteres')).toBeVisible();
      await check('form with errors');
    });
  }
});
