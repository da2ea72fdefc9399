import { expect, type Page, test } from '@playwright/test';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs, SE_ADDRESS } from './helpers';

/** An EAN-13 with its check digit, from 12 digits. */
function ean13(base12: string): string {
  const digits = base12.split('').map(Number);
  const sum = digits.reduce((s, d, i) => s + d * (i % 2 === 0 ? 1 : 3), 0);
  return `${base12}${(10 - (sum % 10)) % 10}`;
}

/**
 * A product with a barcode and a customer with a phone and an address, created as the Administrador.
 * `categoryId`: the product's category (a sector's, for the kitchen).
 */
async function arrange(page: Page, n: number, categoryId?: number) {
  const stamp = Date.now().toString().slice(-7);
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const barcode = ean13(`201${stamp}0${n}`);
  const product = await page.request.post('/v1/product', {
    headers,
    data: { name: `Pizza ${stamp}-${n}`, salePriceCents: 4500, barcode, stock: 20, categoryId },
  });
  expect(product.status(), await product.text()).toBe(201);
  const customerName = `Cliente Entrega ${stamp}-${n}`;
  const customer = await page.request.post('/v1/customer', {
    headers,
    data: {
      name: customerName,
      phone: '11987654321',
      addresses: [SE_ADDRESS],
    },
  });
  expect(customer.status(), await customer.text()).toBe(201);
  const panel = await (await page.request.get('/v1/delivery/panel', { headers })).json();
  const driver = panel.drivers.find((d: { userTypeId: number }) => d.userTypeId === 10);
  expect(driver).toBeTruthy();
  return {
    barcode,
    productName: `Pizza ${stamp}-${n}`,
    customerName,
    driver: driver as { id: number; name: string },
  };
}

test('delivery: a phone order taken on the panel with the PDV steps lands on the board, paid', async ({
  page,
}) => {
  await closeRegisterViaApi(page, 1);
  const { barcode, customerName } = await arrange(page, 2);
  await loginAs(page, 1);
  await page.goto('/dashboard/sale/delivery');
  await page.getByRole('link', { name: 'Novo pedido' }).click();
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('50,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Novo pedido de entrega' })).toBeVisible();
  await page.getByTestId('pdv-search').click();
  await page.keyboard.type(barcode, { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  await page.getByRole('button', { name: 'Avançar' }).click();
  // No pickup option: a phone order is delivered; the customer's address is chosen for them.
  await expect(page.getByRole('radio', { name: 'Retirada na loja' })).toHaveCount(0);
  await page.getByLabel('Buscar cliente por nome, CPF/CNPJ ou telefone (F4)').fill(customerName);
  await page.getByRole('list', { name: 'Clientes encontrados' }).getByText(customerName).click();
  await expect(page.getByLabel('Endereço de entrega')).toContainText('Praça da Sé');
  // The shop's freight rule answers first (it fills the freight); then the operator types its own.
  await expect(page.getByTestId('pdv-freight-reason')).toBeVisible();
  await page.getByRole('textbox', { name: 'Frete' }).fill('5,00');
  await expect(page.getByTestId('pdv-final-amount')).toHaveText('R$ 50,00');
  await page.getByRole('button', { name: 'Avançar' }).click();
  const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
  await addPayment.getByLabel('Forma de pagamento').click();
  await page.getByRole('option', { name: 'Pix', exact: true }).click();
  await addPayment.getByLabel('Valor').fill('50,00');
  await addPayment.getByRole('button', { name: 'Adicionar' }).click();
  await page.getByRole('button', { name: 'Registrar pedido' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /Pedido nº \d+ registrado/ })).toBeVisible();
  await page.getByRole('link', { name: 'Voltar ao painel' }).click();
  const card = page
    .getByRole('region', { name: 'Novo' })
    .locator('[data-testid^="delivery-order-"]')
    .filter({ hasText: customerName });
  await expect(card).toContainText('Pago');

  // How the panel looks on a phone, light and dark.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/h18/panel-390-light.png', fullPage: true });
  await page.getByRole('button', { name: 'Ativar tema escuro' }).click();
  await page.screenshot({ path: '/tmp/h18/panel-390-dark.png', fullPage: true });
  await page.getByRole('button', { name: 'Ativar tema claro' }).click();
  await card.getByRole('button', { name: 'Cancelar' }).click();
  const cancel = page.getByRole('dialog', { name: /Cancelar pedido/ });
  await cancel.getByLabel('Motivo').fill('Teste de pedido por telefone');
  await cancel.getByRole('button', { name: 'Cancelar pedido' }).click();
  await expect(
    page
      .getByRole('region', { name: 'Finalizados hoje' })
      .locator('[data-testid^="delivery-order-"]')
      .filter({ hasText: customerName }),
  ).toContainText('Cancelado');
  // Restore: the Administrador's register closed again.
  await closeRegisterViaApi(page, 1);
});
