import { crc32, deflateSync } from 'node:zlib';
import { withCheckDigit } from '@balcao/core/barcode';
import { expect, type Page, test } from '@playwright/test';
import { apiLogin, demoEmail, loginAs } from './helpers';

/** A small solid-colour PNG built here (real image bytes: the server sniffs and resizes them). */
function makePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => [30, 90, 200]).flat()),
  ]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PNG = makePng(64, 48);

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
/** A valid EAN-13 nobody else uses (internal-use prefix 2). */
const newEan = () => withCheckDigit(`2${String(Date.now()).slice(-11)}`);
const snackbar = (page: Page) => page.getByTestId('feedback-snackbar');

async function searchList(page: Page, text: string) {
  await page.goto('/dashboard/product');
  await expect(page.getByRole('heading', { name: 'Produtos' })).toBeVisible();
  await page.getByLabel('Buscar').fill(text);
}

test.describe('products', () => {
  test('create a product with variants and an image, find it by barcode and name, edit a variant price', async ({
    page,
  }) => {
    const tag = unique();
    const name = `Camiseta Teste ${tag}`;
    await loginAs(page, 1);
    await page.goto('/dashboard/product/new');
    await expect(page).toHaveTitle('Novo produto | Balcão');

    await page.getByLabel('Nome').fill(name);
    await page.getByLabel('Tipo').click();
    await page.getByRole('option', { name: 'Com variações (grade)' }).click();
    await page.getByLabel('Preço de venda').fill('59,90');
    await page.getByLabel('Preço de custo').fill('25,50');
    await expect(page.getByTestId('margin')).toHaveText('Margem: 57,43%');
    const colors = page.getByRole('combobox', { name: 'Cores' });
    await colors.fill('Azul');
    await colors.press('Enter');
    await colors.fill('Verde');
    await colors.press('Enter');
    const sizes = page.getByRole('combobox', { name: 'Tamanhos' });
    await sizes.fill('M');
    await sizes.press('Enter');
    await sizes.fill('G');
    await sizes.press('Enter');
    await page.getByRole('button', { name: 'Cadastrar' }).click();

    await expect(page).toHaveURL(/\/dashboard\/product\/edit\/\d+$/);
    await expect(snackbar(page)).toContainText('Produto criado com sucesso');
    await expect(page.getByTestId('variant-row')).toHaveCount(4);

    // An image: the first one is the cover.
    await page
      .getByTestId('image-file')
      .setInputFiles({ name: 'camiseta.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByTestId('product-image')).toHaveCount(1);
    await expect(page.getByTestId('product-image').getByText('Capa')).toBeVisible();

    // A barcode and its own price on "Azul / M".
    const barcode = newEan();
    await page.getByLabel('Código de barras de Azul / M').fill(barcode);
    await page.getByLabel('Preço de Azul / M').fill('64,90');
    await page
      .getByTestId('variant-row')
      .filter({ hasText: 'Azul / M' })
      .getByRole('button', { name: 'Salvar' })
      .click();
    await expect(snackbar(page)).toContainText('Variação Azul / M salva');

    // Found by the variant's barcode and by part of its name.
    await searchList(page, barcode);
    await expect(page.getByTestId('product-row')).toHaveCount(1);
    await expect(page.getByTestId('product-row')).toContainText(name);
    await searchList(page, `teste ${tag}`);
    await expect(page.getByTestId('product-row')).toHaveCount(1);
    await expect(page.getByTestId('product-row')).toContainText('R$ 59,90');
    await expect(page.getByTestId('product-row').locator('img')).toHaveCount(1);

    // Edit the variant price again, from the list.
    await page.getByTestId('product-row').click();
    await expect(page.getByLabel('Preço de Azul / M')).toHaveValue('64,90');
    await page.getByLabel('Preço de Azul / M').fill('62,50');
    await page
      .getByTestId('variant-row')
      .filter({ hasText: 'Azul / M' })
      .getByRole('button', { name: 'Salvar' })
      .click();
    await expect(snackbar(page)).toContainText('Variação Azul / M salva');
    await page.reload();
    await expect(page.getByLabel('Preço de Azul / M')).toHaveValue('62,50');

    // The PDV scanner gets the variant with its price.
    const token = await apiLogin(page, demoEmail(4));
    const scan = await page.request.get(`/v1/product/barcode/${barcode}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(scan.status()).toBe(200);
    const body = await scan.json();
    expect(body.product.name).toBe(name);
    expect(body.variant).toMatchObject({ name: 'Azul / M', effectivePriceCents: 6250 });
  });

  test('import a CSV with one bad line: the error shows, nothing is written until the bad line is skipped', async ({
    page,
  }) => {
    const tag = unique();
    const csv = [
      'nome;sku;codigo_barras;preco_venda;categoria',
      `Suco de Uva ${tag};IMP-${tag}-1;;8,50;Bebidas`,
      `Suco de Caju ${tag};IMP-${tag}-2;7894900011518;8,50;Bebidas`,
      `Suco de Manga ${tag};IMP-${tag}-3;;9,00;Bebidas`,
    ].join('\n');
    await loginAs(page, 2);
    await page.goto('/dashboard/product');
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar produtos (CSV)' });
    await dialog.getByTestId('import-file').setInputFiles({
      name: 'produtos.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf-8'),
    });
    await expect(dialog.getByText('3 linhas, 2 válidas, 1 com erro')).toBeVisible();
    const error = dialog.getByTestId('import-error');
    await expect(error).toHaveCount(1);
    await expect(error).toContainText('3');
    await expect(error).toContainText('codigo_barras');
    await expect(error).toContainText('Código de barras inválido: o dígito verificador não confere');
    const importButton = dialog.getByRole('button', { name: 'Importar 2 produtos' });
    await expect(importButton).toBeDisabled();

    // Nothing was written by the preview.
    await searchList(page, tag);
    await expect(page.getByText('Nenhum produto foi encontrado')).toBeVisible();

    await page.getByRole('button', { name: 'Importar CSV' }).click();
    await dialog.getByTestId('import-file').setInputFiles({
      name: 'produtos.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf-8'),
    });
    await dialog.getByLabel('Pular as linhas com erro e importar as válidas').check();
    await dialog.getByRole('button', { name: 'Importar 2 produtos' }).click();
    await expect(
      dialog.getByText('Importação concluída: 2 produtos criados, 0 atualizados, 1 linha pulada.'),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await expect(page.getByTestId('product-row')).toHaveCount(2);
    await expect(page.getByTestId('product-row').first()).toContainText(`Suco de Manga ${tag}`);
  });

  test('a Vendedor sees the catalog read-only', async ({ page }) => {
    await loginAs(page, 3);
    await page.goto('/dashboard/product');
    await expect(page.getByTestId('product-row').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Importar CSV' })).toHaveCount(0);
    await page.getByTestId('product-row').first().click();
    await expect(page.getByText('Você pode ver este produto, mas não alterá-lo.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Salvar' })).toHaveCount(0);
  });
});

test.describe('categories and brands', () => {
  test('create a category, see it listed, refuse deleting one in use', async ({ page }) => {
    const name = `Categoria ${unique()}`;
    await loginAs(page, 1);
    await page.goto('/dashboard/product-category/new');
    await page.getByLabel('Nome').fill(name);
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect(snackbar(page)).toContainText('Categoria criada com sucesso');
    await expect(page).toHaveURL(/\/dashboard\/product-category\/edit\/\d+$/);
    await page.goto('/dashboard/product-category');
    await page.getByLabel('Buscar').fill('Lanches');
    await page.getByRole('button', { name: 'Excluir Lanches', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
    await expect(snackbar(page)).toContainText(/Não é possível excluir: \d+ produtos usam esta categoria/);
    await page.getByLabel('Buscar').fill(name);
    await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  });
});
