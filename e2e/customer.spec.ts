import { expect, test } from '@playwright/test';
import { loginAs } from './helpers';

// The API's CEP lookup points at the fake ViaCEP started by playwright.config.ts (01001-000 is Praça da Sé).

test.describe('customers', () => {
  test('a Vendedor creates a customer: the invalid-CPF message, CEP auto-fill, then the list', async ({
    page,
  }) => {
    await loginAs(page, 3);
    await page.goto('/dashboard/customer/new');
    await expect(page).toHaveTitle('Novo cliente | Balcão');

    await page.getByLabel('Nome').fill('Beatriz Nogueira E2E');
    const cpf = page.getByLabel('CPF');
    await cpf.fill('52998224724');
    await expect(cpf).toHaveValue('529.982.247-24');
    await cpf.blur();
    await expect(page.getByText('CPF inválido')).toBeVisible();
    await cpf.fill('39053344705');
    await expect(page.getByText('CPF inválido')).toBeHidden();
    await page.getByLabel('WhatsApp').fill('11912345678');
    await expect(page.getByLabel('WhatsApp')).toHaveValue('(11) 91234-5678');

    await page.getByRole('button', { name: 'Adicionar endereço' }).click();
    const address = page.getByTestId('address-0');
    await address.getByLabel('CEP').fill('01001000');
    await expect(address.getByLabel('CEP')).toHaveValue('01001-000');
    await expect(address.getByLabel('Logradouro')).toHaveValue('Praça da Sé');
    await expect(address.getByLabel('Bairro')).toHaveValue('Sé');
    await expect(address.getByLabel('Cidade')).toHaveValue('São Paulo');
    await expect(address.locator('input[name="addresses.0.state"]')).toHaveValue('SP');
    // The lookup moves the cursor to the number.
    await expect(address.getByLabel('Número')).toBeFocused();
    await address.getByLabel('Número').fill('250');

    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page).toHaveURL(/\/dashboard\/customer$/);
    await expect(page.getByTestId('feedback-snackbar')).toContainText('Cliente cadastrado com sucesso');
    await page.getByLabel('Buscar').fill('Beatriz Nogueira');
    const row = page.getByTestId('customer-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('390.533.447-05');
    await expect(row).toContainText('São Paulo/SP');
    await expect(row).toContainText('Em dia');

    await row.getByRole('link', { name: 'Beatriz Nogueira E2E', exact: true }).click();
    await expect(page).toHaveTitle('Editar cliente | Balcão');
    await expect(page.getByTestId('address-0').getByLabel('Número')).toHaveValue('250');
  });

  test('an unknown CEP leaves the address fields for manual typing', async ({ page }) => {
    await loginAs(page, 1);
    await page.goto('/dashboard/customer/new');
    await page.getByLabel('Nome').fill('Cliente Sem CEP E2E');
    await page.getByRole('button', { name: 'Adicionar endereço' }).click();
    const address = page.getByTestId('address-0');
    await address.getByLabel('CEP').fill('12345678');
    await expect(address.getByTestId('cep-fallback')).toContainText('CEP não encontrado');
    await address.getByLabel('Logradouro').fill('Rua das Flores');
    await address.getByLabel('Número').fill('10');
    await address.getByLabel('Bairro').fill('Centro');
    await address.getByLabel('Cidade').fill('Campinas');
    await address.getByLabel('UF').click();
    await page.getByRole('option', { name: 'SP', exact: true }).click();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page).toHaveURL(/\/dashboard\/customer$/);
    await page.getByLabel('Buscar').fill('Sem CEP E2E');
    await expect(page.getByTestId('customer-row')).toHaveCount(1);
    await expect(page.getByTestId('customer-row')).toContainText('Campinas/SP');
  });

  test('the list flags delinquent demo customers and filters them', async ({ page }) => {
    await loginAs(page, 1);
    await page.goto('/dashboard/customer');
    await expect(page.getByTestId('customer-row').first()).toBeVisible();
    await page.getByLabel('Situação').click();
    await page.getByRole('option', { name: 'Inadimplentes' }).click();
    await expect(page).toHaveURL(/delinquent=true/);
    const rows = page.getByTestId('customer-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('Inadimplente');
  });
});
