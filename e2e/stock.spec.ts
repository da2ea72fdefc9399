import AxeBuilder from '@axe-core/playwright';
import { withCheckDigit } from '@balcao/core/barcode';
import { expect, type Page, test } from '@playwright/test';
import { apiLogin, demoEmail, loginAs } from './helpers';

/** Demo catalog barcodes (apps/api/src/modules/product/seed.ts): GS1 Brasil 789, item numbers. */
const ean = (item: number) => withCheckDigit(`7899990${String(item).padStart(5, '0')}`);
const COKE_CAN = { name: 'Coca-Cola Lata 350 ml', barcode: ean(1) };
const GUARANA = { name: 'Guaraná Antarctica Lata 350 ml', barcode: ean(4) };
const PACK = 'Fardo Coca-Cola Lata 350 ml 12 un';

const snackbar = (page: Page) => page.getByTestId('feedback-snackbar');

type ApiProduct = { id: number; name: string; stock: number; costPriceCents: number };

/** A demo product read through the API (by barcode), to compare levels before and after. */
async function productByBarcode(page: Page, barcode: string): Promise<ApiProduct> {
  const token = await apiLogin(page, demoEmail(1));
  const res = await page.request.get(`/v1/product/barcode/${barcode}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).product;
}

async function productByName(page: Page, name: string): Promise<ApiProduct> {
  const token = await apiLogin(page, demoEmail(1));
  const me = await (
    await page.request.get('/v1/user/me', { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const res = await page.request.get(
    `/v1/product/client/${me.user.client.id}?q=${encodeURIComponent(name)}&pageSize=5`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  const found = (await res.json()).items.find((p: ApiProduct) => p.name === name);
  expect(found).toBeTruthy();
  return found;
}

async function scan(page: Page, code: string) {
  const field = page.getByLabel('Código de barras');
  await field.fill(code);
  await field.press('Enter');
}

/** Picks a product in an autocomplete by typing part of its name. */
async function pickProduct(page: Page, label: string | RegExp, text: string, optionName: string) {
  const input = page.getByRole('combobox', { name: label });
  await input.fill(text);
  await page
    .getByRole('option', { name: new RegExp(optionName) })
    .first()
    .click();
}

test.describe('stock', () => {
  test('an entry of two products by barcode updates their levels', async ({ page }) => {
    const coke = await productByBarcode(page, COKE_CAN.barcode);
    const guarana = await productByBarcode(page, GUARANA.barcode);
    await loginAs(page, 6);
    await page.goto('/dashboard/stock-movement/entry');
    await expect(page).toHaveTitle('Entrada de estoque | Balcão');

    await scan(page, COKE_CAN.barcode);
    await scan(page, GUARANA.barcode);
    // A second scan of the same code adds one to its row.
    await scan(page, GUARANA.barcode);
    const rows = page.getByTestId('movement-row');
    await expect(rows).toHaveCount(2);
    await expect(page.getByLabel(`Quantidade de ${GUARANA.name}`)).toHaveValue('2');

    await page.getByLabel(`Quantidade de ${COKE_CAN.name}`).fill('24');
    await page.getByLabel(`Custo unitário de ${COKE_CAN.name}`).fill('3,30');
    await page.getByLabel(`Quantidade de ${GUARANA.name}`).fill('12');
    await page.getByLabel(`Custo unitário de ${GUARANA.name}`).fill('2,90');
    await expect(page.getByTestId('entry-totals')).toHaveText('2 produtos · Total: R$ 114,00');
    await page.getByLabel('Nota fiscal / documento').fill('NF 9001');
    await page.getByRole('button', { name: 'Registrar entrada' }).click();

    await expect(snackbar(page)).toContainText('Entrada registrada com sucesso');
    await expect(rows).toHaveCount(0);
    expect((await productByBarcode(page, COKE_CAN.barcode)).stock).toBe(coke.stock + 24);
    expect((await productByBarcode(page, GUARANA.barcode)).stock).toBe(guarana.stock + 12);
    // The history below shows the two entries with the document.
    const history = page.getByRole('region', { name: 'Histórico de movimentações' });
    await expect(history.getByTestId('movement-history-row').filter({ hasText: 'NF 9001' })).toHaveCount(2);
  });

  test('an unknown barcode and a too large exit answer in Portuguese', async ({ page }) => {
    // This test's rule, stated rather than inherited from the specs before it: no negative stock.
    const token = await apiLogin(page, demoEmail(1));
    const headers = { authorization: `Bearer ${token}` };
    const me = await (await page.request.get('/v1/user/me', { headers })).json();
    const rule = await page.request.put(`/v1/stock-setting/client/${me.user.client.id}`, {
      headers,
      data: { allowNegativeStock: false },
    });
    expect(rule.status(), await rule.text()).toBe(200);
    await loginAs(page, 6);
    await page.goto('/dashboard/stock-movement/exit');
    await expect(page).toHaveTitle('Saída de estoque | Balcão');
    await scan(page, '7890000000000');
    await expect(snackbar(page)).toContainText('Nenhum produto com este código de barras');

    const guarana = await productByBarcode(page, GUARANA.barcode);
    await scan(page, GUARANA.barcode);
    await page.getByLabel(`Quantidade de ${GUARANA.name}`).fill(String(guarana.stock + 1));
    await page.getByLabel('Motivo').click();
    await page.getByRole('option', { name: 'Quebra' }).click();
    await page.getByRole('button', { name: 'Registrar saída' }).click();
    await expect(snackbar(page)).toContainText(
      `Estoque insuficiente para ${GUARANA.name} (disponível: ${guarana.stock})`,
    );
    await page.getByLabel(`Quantidade de ${GUARANA.name}`).fill('1,5');
    await page.getByRole('button', { name: 'Registrar saída' }).click();
    await expect(snackbar(page)).toContainText('Saída registrada com sucesso');
    expect((await productByBarcode(page, GUARANA.barcode)).stock).toBe(guarana.stock - 1.5);
  });

  test('a fractioning uses the remembered ratio', async ({ page }) => {
    const pack = await productByName(page, PACK);
    const can = await productByBarcode(page, COKE_CAN.barcode);
    await loginAs(page, 6);
    await page.goto('/dashboard/stock-movement/fractionate');
    await expect(page).toHaveTitle('Fracionar | Balcão');

    await pickProduct(page, 'Produto de origem', 'Fardo', PACK);
    // The demo shop fractionated this pack into cans before: one click brings the target and ratio.
    await page.getByRole('button', { name: /Coca-Cola Lata 350 ml \(1 → 12\)/ }).click();
    await expect(page.getByRole('combobox', { name: 'Produto de destino' })).toHaveValue(COKE_CAN.name);
    await expect(page.getByLabel('Quantidade que entra')).toHaveValue('12');
    await page.getByLabel('Quantidade que sai').fill('2');
    await expect(page.getByLabel('Quantidade que entra')).toHaveValue('24');
    await expect(page.getByTestId('fractionate-preview')).toHaveText(
      `Sairão 2 un de ${PACK} e entrarão 24 un de ${COKE_CAN.name}.`,
    );
    await page.getByRole('button', { name: 'Fracionar' }).click();
    await expect(snackbar(page)).toContainText('Fracionamento registrado com sucesso');

    expect((await productByName(page, PACK)).stock).toBe(pack.stock - 2);
    expect((await productByBarcode(page, COKE_CAN.barcode)).stock).toBe(can.stock + 24);
    const history = page.getByRole('region', { name: 'Histórico de movimentações' });
    await expect(history.getByTestId('movement-history-row').first()).toContainText('Fracionamento');
  });

  test('the history filtered by product, and the stock card on the product page', async ({ page }) => {
    await loginAs(page, 2);
    await page.goto('/dashboard/stock-movement/entry');
    const history = page.getByRole('region', { name: 'Histórico de movimentações' });
    await history.getByLabel('Tipo').click();
    await page.getByRole('option', { name: 'Todos' }).click();
    await pickProduct(page, 'Filtrar por produto', 'Guaran', GUARANA.name);
    const rows = history.getByTestId('movement-history-row');
    // Only the product's movements: its opening balance, the demo entry, this run's entry and exit.
    await expect(rows.filter({ hasNotText: GUARANA.name })).toHaveCount(0);
    await expect(rows.filter({ hasText: 'Entrada' })).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Saída' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Ajuste' })).toHaveCount(1);

    const guarana = await productByBarcode(page, GUARANA.barcode);
    await page.goto(`/dashboard/product/edit/${guarana.id}`);
    const card = page.getByRole('region', { name: 'Ficha de estoque' });
    await expect(card.getByRole('heading', { name: 'Ficha de estoque' })).toBeVisible();
    await expect(card.getByTestId('stock-card-row').first()).toBeVisible();
    // The newest line's balance is the product's current level.
    await expect(card.getByTestId('stock-card-row').first()).toContainText(
      `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 }).format(guarana.stock)} un`,
    );
  });

  test("a variant's stock typed in the product form shows in the stock card at once, with the user (issue 30)", async ({
    page,
  }) => {
    const token = await apiLogin(page, demoEmail(1));
    const tag = Date.now().toString(36).toUpperCase();
    const res = await page.request.post('/v1/product', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name: `Meia ${tag}`,
        sku: `MEIA-${tag}`,
        productType: 'variants',
        salePriceCents: 1990,
        grid: { colors: [], sizes: ['P'] },
      },
    });
    expect(res.status()).toBe(201);
    const product = (await res.json()) as { id: number };
    await loginAs(page, 1);
    await page.goto(`/dashboard/product/edit/${product.id}`);
    const card = page.getByRole('region', { name: 'Ficha de estoque' });
    await expect(card).toBeVisible();
    await page.getByLabel('Estoque de P', { exact: true }).fill('7');
    await page
      .getByTestId('variant-row')
      .filter({ hasText: 'P' })
      .getByRole('button', { name: 'Salvar' })
      .click();
    await expect(snackbar(page)).toContainText('Variação P salva');
    // No reload: the card hears the product write, and names who typed the level (not "Sistema").
    const first = card.getByRole('row').nth(1);
    await expect(first).toContainText('+7');
    await expect(first).toContainText('Administrador');
    await expect(first).not.toContainText('Sistema');
  });

  test('the three pages have no serious accessibility violation (axe), read only for a Vendedor', async ({
    page,
  }) => {
    await loginAs(page, 3);
    for (const [path, heading] of [
      ['/dashboard/stock-movement/entry', 'Entrada de estoque'],
      ['/dashboard/stock-movement/exit', 'Saída de estoque'],
      ['/dashboard/stock-movement/fractionate', 'Fracionar'],
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await expect(
        page.getByText('Você pode consultar o estoque, mas não registrar movimentações.'),
      ).toBeVisible();
      await expect(page.getByTestId('movement-history-row').first()).toBeVisible();
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    }
  });
});
