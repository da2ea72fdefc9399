import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { layoutSettled, login } from './helpers';

/**
 * Product search at scale (issue 21): a search that matches more than 1,000 products says "mais de
 * 1.000 produtos", the pagination follows the capped total, and names that start with the search
 * come first. The catalog goes into a shop of its own (created here), so the demo shop is untouched.
 */

/** A valid CNPJ from 12 digits. */
function cnpj(base12: string): string {
  const calc = (s: string, w: number[]) => {
    const r = w.reduce((acc, x, i) => acc + Number(s[i]) * x, 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = calc(base12, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = calc(base12 + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${base12}${d1}${d2}`;
}

const SHOTS = '/tmp/h21b';

/** The screen at 1280 and 390 px, light and dark (the app's own theme toggle), into /tmp/h21b. */
async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const take = async (scheme: string, width: number) => {
    await page.setViewportSize({ width, height: 860 });
    await layoutSettled(page, width);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}.png` });
  };
  await take('light', 1280);
  await take('light', 390);
  await page.getByRole('button', { name: 'Ativar tema escuro' }).click();
  await take('dark', 390);
  await take('dark', 1280);
  await page.getByRole('button', { name: 'Ativar tema claro' }).click();
}

test('a broad search says "mais de 1.000 produtos" and ranks names that start with it first', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString().slice(-8);
  const email = `busca.${stamp}@teste.com.br`;
  const password = 'senha-forte-1';
  const created = await page.request.post('/v1/system-client', {
    data: {
      systemClient: {
        name: 'Mercadinho da Busca',
        document: cnpj(`4455${stamp}`),
        clientTypeId: 1,
        phone: '11987654321',
      },
      user: { name: 'Seu Zé', email, password, passwordConfirmation: password },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { token } = await created.json();
  const lines = ['nome;preco_venda'];
  for (let i = 0; i < 1020; i++) lines.push(`Sabão em pó ${String(i).padStart(4, '0')};9,90`);
  lines.push('Kit limpeza com sabão;29,90', 'Esponja dupla face;3,50');
  const imported = await page.request.post('/v1/product/import', {
    headers: { authorization: `Bearer ${token}` },
    data: { csv: lines.join('\n'), dryRun: false },
  });
  expect(imported.status(), await imported.text()).toBe(200);
  expect((await imported.json()).created).toBe(1022);

  await login(page, email, password);
  await page.goto('/dashboard/product');
  await page.getByPlaceholder('Nome, SKU ou código de barras').fill('sabão');
  await expect(page.getByTestId('product-count')).toHaveText('mais de 1.000 produtos');
  await expect(page.getByText('1–20 de mais de 1.000')).toBeVisible();
  const rows = page.getByTestId('product-row');
  await expect(rows).toHaveCount(20);
  // Names that start with the search first: the kit (which sorts before by name) is not on page 1.
  await expect(rows.first()).toContainText('Sabão em pó 0000');
  await expect(page.getByTestId('product-count')).toBeVisible();
  await shoot(page, 'product-search-capped');

  // The next page of a capped total, then the column sort: exact by name over every match.
  await page.getByRole('button', { name: 'Próxima página' }).click();
  await expect(page.getByText('21–40 de mais de 1.000')).toBeVisible();
  await expect(rows.first()).toContainText('Sabão em pó 0020');
  await page.getByRole('button', { name: 'Produto' }).click();
  await expect(rows.first()).toContainText('Kit limpeza com sabão');

  // A narrow search counts exactly.
  await page.getByPlaceholder('Nome, SKU ou código de barras').fill('esponja');
  await expect(page.getByTestId('product-count')).toHaveText('1 produto');
  await expect(page.getByText('1–1 de 1')).toBeVisible();
});
