import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { animationsDone, apiLogin, demoEmail, loginAs, settled } from './helpers';

/**
 * Issue 30, item 22: axe's serious and critical findings on the product form (helper texts, the
 * R$/% toggles), the CSV import dialog with its preview, billing at 390 and the public approval page
 * at 390 (scrollable regions a keyboard cannot reach), scanned at their inner steps, in both themes.
 */

async function serious(page: Page, label: string): Promise<string[]> {
  await animationsDone(page);
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${label}: ${v.id} ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

const IMPORT_CSV = [
  'nome;sku;codigo_barras;preco_venda;preco_custo;categoria;marca;estoque;unidade;descricao',
  ...Array.from(
    { length: 30 },
    (_, i) => `Produto de teste ${i};A11Y-${i};;${i + 1},90;1,00;Bebidas;;5;un;Uma descrição bem longa ${i}`,
  ),
  'Sem preço;A11Y-X;;;;;;;;',
].join('\n');

for (const scheme of ['light', 'dark'] as const) {
  test(`product form and CSV import: no serious axe violation (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const problems: string[] = [];
    await loginAs(page, 1);
    await page.goto('/dashboard/product/new');
    await expect(page.getByLabel('Nome').first()).toBeVisible();
    await settled(page);
    problems.push(...(await serious(page, 'product form')));
    // A product with a grid: the disabled type's helper text, the variants and the stock card.
    await page.goto('/dashboard/product');
    await page.getByLabel('Buscar').fill('Camiseta Balcão');
    await expect(page.getByText('1 produto', { exact: true })).toBeVisible();
    await page.getByLabel('Editar Camiseta Balcão Lanches').click();
    await expect(page.getByRole('region', { name: 'Ficha de estoque' })).toBeVisible();
    await expect(page.getByText('Exclua a grade para mudar o tipo')).toBeVisible();
    await settled(page);
    problems.push(...(await serious(page, 'product with a grid')));

    await page.goto('/dashboard/product');
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar produtos (CSV)' });
    await dialog.getByTestId('import-file').setInputFiles({
      name: 'produtos.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(IMPORT_CSV, 'utf-8'),
    });
    await expect(dialog.getByText('31 linhas, 30 válidas, 1 com erro')).toBeVisible();
    problems.push(...(await serious(page, 'import preview 1280')));
    await page.setViewportSize({ width: 390, height: 844 });
    problems.push(...(await serious(page, 'import preview 390')));
    expect(problems).toEqual([]);

    // A UTF-8 file with one Windows-1252 row: read as UTF-8, that row named in a warning (issue 30).
    const mixed = Buffer.concat([
      Buffer.from('nome;preco_venda\nCalça jeans;99,90\nCamisa pólo;59,90\n', 'utf-8'),
      Buffer.from('Camisão;20,00\n', 'latin1'),
    ]);
    await dialog
      .getByTestId('import-file')
      .setInputFiles({ name: 'mista.csv', mimeType: 'text/csv', buffer: mixed });
    await expect(dialog.getByTestId('import-encoding-warning')).toHaveText(
      'A linha 4 tem caracteres que não puderam ser lidos (aparecem como "�"). Confira essa linha na planilha e salve o arquivo como CSV UTF-8.',
    );
    await expect(dialog.getByText('Calça jeans')).toBeVisible();
  });
}

test('billing and the public approval page at 390: no serious axe violation', async ({ page, browser }) => {
  const problems: string[] = [];
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/billing');
  await expect(page.getByRole('heading', { name: 'Assinatura' }).first()).toBeVisible();
  await settled(page);
  problems.push(...(await serious(page, 'billing 390')));

  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const products = await (await page.request.get('/v1/product/client/1?pageSize=3', { headers })).json();
  const customers = await (await page.request.get('/v1/customer/client/1?pageSize=1', { headers })).json();
  const created = await (
    await page.request.post('/v1/budget', {
      headers,
      data: {
        items: products.items.map((p: { id: number }) => ({ productId: p.id, quantity: 12 })),
        customerId: customers.items[0].id,
        paymentConditions: 'Entrada de 50% e o restante na entrega',
      },
    })
  ).json();
  const sent = await (
    await page.request.post(`/v1/budget/${created.id}/send`, {
      headers,
      data: { channel: 'link', appUrl: 'http://localhost' },
    })
  ).json();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const visitor = await context.newPage();
  await visitor.goto(new URL(sent.link.url).pathname);
  await expect(visitor.getByRole('heading', { name: /Orçamento nº/ })).toBeVisible();
  problems.push(...(await serious(visitor, 'approval 390')));
  // Every line's total is on screen, not cut at the right edge.
  const cut = await visitor
    .getByRole('table', { name: 'Itens do orçamento' })
    .locator('tbody td:last-child')
    .evaluateAll((cells) => cells.filter((c) => c.getBoundingClientRect().right > window.innerWidth).length);
  expect(cut).toBe(0);
  await context.close();
  expect(problems).toEqual([]);
});
