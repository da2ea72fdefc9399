import { expect, test } from '@playwright/test';
import { arrangeDelivery } from './fixtures';
import { closeRegisterViaApi, loginAs } from './helpers';

test('delivery: a phone order taken on the panel with the PDV steps lands on the board, paid', async ({
  page,
}) => {
  await closeRegisterViaApi(page, 1);
  const { barcode, customerName } = await arrangeDelivery(page, 2);
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
