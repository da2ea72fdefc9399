import { formatCents } from '@balcao/core/money';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { UserType } from '@balcao/core/userTypes';
import { expect, test } from '@playwright/test';
import { apiLogin, demoEmail, loginAs } from './helpers';

const today = dateIn(DEFAULT_TIME_ZONE);

test("the Financeiro adds the shop's own category and a bank account, pays a bill from that account and reads the cash flow of that account", async ({
  page,
}) => {
  const tag = Date.now().toString(36);
  const category = `Embalagens ${tag}`;
  const bank = `Banco ${tag}`;
  await loginAs(page, UserType.FINANCIAL);

  await page.getByRole('link', { name: 'Categorias de despesa' }).click();
  await page.getByRole('button', { name: 'Nova categoria' }).click();
  const newCategory = page.getByRole('dialog', { name: 'Nova categoria' });
  await newCategory.getByLabel('Nome').fill(category);
  await newCategory.getByLabel('Grupo do DRE').click();
  await page.getByRole('option', { name: 'Despesas operacionais' }).click();
  await newCategory.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText(`Categoria ${category} salva`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(category) })).toContainText('Despesas operacionais');
  await page.screenshot({ path: test.info().outputPath('categories-1280.png'), fullPage: true });

  await page.getByRole('link', { name: 'Contas bancárias' }).click();
  await page.getByRole('button', { name: 'Nova conta bancária' }).click();
  const newAccount = page.getByRole('dialog', { name: 'Nova conta bancária' });
  await newAccount.getByLabel('Nome').fill(bank);
  await newAccount.getByLabel('Agência').fill('1234');
  await newAccount.getByLabel('Conta', { exact: true }).fill('5678-9');
  await newAccount.getByRole('checkbox', { name: 'Pix' }).check();
  await newAccount.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText(`Conta ${bank} salva`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(bank) })).toContainText('Pix');

  // The bill, in the new category (through the API: the form is the other spec's).
  const token = await apiLogin(page, demoEmail(UserType.FINANCIAL));
  const headers = { authorization: `Bearer ${token}` };
  const categories = await (await page.request.get('/v1/payable/category', { headers })).json();
  const categoryId = categories.find((c: { name: string }) => c.name === category).id;
  const description = `Caixas de papelão ${tag}`;
  const created = await page.request.post('/v1/payable', {
    headers,
    data: { categoryId, description, amountCents: 4321, dueDate: today },
  });
  expect(created.status()).toBe(201);

  await page.getByRole('link', { name: 'Contas a pagar' }).click();
  await page.getByPlaceholder('Descrição, documento ou fornecedor').fill(description);
  const row = page.getByRole('row', { name: new RegExp(description) });
  await row.getByRole('button', { name: `Pagar ${description}` }).click();
  const pay = page.getByRole('dialog', { name: 'Pagar conta' });
  await pay.getByLabel('De onde saiu o dinheiro').click();
  await page.getByRole('option', { name: `${bank} (ag. 1234, c/c 5678-9)` }).click();
  await pay.getByRole('button', { name: 'Confirmar pagamento' }).click();
  await expect(page.getByText(`Pagamento de ${description} registrado`)).toBeVisible();
  await expect(row).toContainText(bank);

  // The cash flow of that account: the bill it paid, and the sales by method in the chart and a table.
  await page.goto(`/dashboard/finance/cash-flow?from=${today}&to=${today}`);
  await expect(page.locator('svg.MuiChartsSvgLayer-root')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Vendas recebidas por forma de pagamento' })).toBeVisible();
  await page.getByLabel('Conta', { exact: true }).click();
  await page.getByRole('option', { name: bank }).click();
  await expect(
    page.getByText('Com uma conta escolhida, o fluxo mostra as contas pagas por ela', { exact: false }),
  ).toBeVisible();
  const todayRow = page.getByRole('table', { name: 'Fluxo de caixa' }).getByRole('row').nth(1);
  await expect(todayRow.getByRole('cell').nth(3)).toHaveText(formatCents(4321));
  await page.screenshot({ path: test.info().outputPath('cash-flow-account-1280.png'), fullPage: true });

  // Archived: the category stays on its bill, and the page says so.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/finance/categories');
  await page.getByRole('button', { name: `Arquivar ${category}` }).click();
  await expect(page.getByText(`Categoria ${category} arquivada`)).toBeVisible();
  await expect(page.getByRole('button', { name: `Reativar ${category}` })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('categories-390.png'), fullPage: true });

  // Deactivated: not offered for new payments, and Pix free for another account.
  await page.goto('/dashboard/finance/bank-accounts');
  await page.getByRole('button', { name: `Desativar ${bank}` }).click();
  await expect(page.getByText(`Conta ${bank} desativada`)).toBeVisible();
});
