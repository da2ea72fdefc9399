import { menuFor } from '@balcao/core/routes';
import { expect, test } from '@playwright/test';
import { login, loginAs } from './helpers';

// The demo shop is a Lanchonete: comandas and stock on, working hours off.
const DEMO_FLAGS = { saleCommand: true, stockManagement: true, checkIsOpen: false };
const ALL_GROUPS = [
  'Clientes',
  'Campanhas',
  'Produtos',
  'Vendas',
  'Orçamentos',
  'Estoque',
  'Cupons',
  'Frete',
  'Usuários',
  'Configurações',
];

test.describe('staff users', () => {
  test('an Administrador creates a Caixa, who logs in and sees the Caixa menu', async ({ page }) => {
    const email = `caixa.e2e.${Date.now()}@loja.com.br`;
    await loginAs(page, 1);
    await page.goto('/dashboard/user/new');
    await expect(page).toHaveTitle('Novo usuário | Balcão');
    await page.getByLabel('Nome').fill('Camila Caixa E2E');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Tipo de usuário').click();
    // The eleven types are offered by name.
    await expect(page.getByRole('option')).toHaveCount(11);
    await page.getByRole('option', { name: 'Caixa', exact: true }).click();
    await page.getByLabel(/^Senha/).fill('curta');
    await page.getByLabel('Confirmar senha').fill('curta');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('A senha deve ter no mínimo 8 caracteres')).toBeVisible();
    await page.getByLabel(/^Senha/).fill('caixa2025');
    await page.getByLabel('Confirmar senha').fill('caixa2025');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page).toHaveURL(/\/dashboard\/user$/);
    await expect(page.getByTestId('feedback-snackbar')).toContainText('Usuário cadastrado com sucesso');
    await page.getByLabel('Buscar').fill('Camila Caixa');
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    await expect(page.getByTestId('user-row')).toContainText('Caixa');

    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    await login(page, email, 'caixa2025');
    await expect(page).toHaveURL(/\/dashboard$/);
    const nav = page.getByRole('navigation', { name: 'Menu principal' });
    const expected = menuFor(4, DEMO_FLAGS);
    for (const { group, items } of expected) {
      await expect(nav.getByRole('list', { name: group })).toBeVisible();
      for (const item of items)
        await expect(nav.getByRole('link', { name: item.title, exact: true })).toBeVisible();
    }
    for (const group of ALL_GROUPS.filter((g) => !expected.some((e) => e.group === g))) {
      await expect(nav.getByRole('list', { name: group })).toHaveCount(0);
    }
    // A Caixa sees the user list read-only.
    await page.goto('/dashboard/user');
    await expect(page.getByTestId('user-row').first()).toBeVisible();
    await expect(page.getByRole('link', { name: /^Ver / }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: /^Excluir / })).toHaveCount(0);
  });

  test('"Alterar senha" from the avatar menu checks the current password and changes it', async ({
    page,
  }) => {
    // A user of its own so the demo logins keep their password.
    const email = `senha.e2e.${Date.now()}@loja.com.br`;
    await loginAs(page, 2);
    const token = await page.evaluate(() => document.cookie.match(/balcao_token=([^;]+)/)?.[1]);
    const created = await page.request.post('/v1/user', {
      headers: { authorization: `Bearer ${decodeURIComponent(token ?? '')}` },
      data: {
        name: 'Troca Senha',
        email,
        userTypeId: 3,
        password: 'inicial123',
        passwordConfirmation: 'inicial123',
      },
    });
    expect(created.status()).toBe(201);
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    await login(page, email, 'inicial123');

    await page.getByRole('button', { name: 'Conta do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Alterar senha' }).click();
    const dialog = page.getByRole('dialog', { name: 'Alterar senha' });
    await dialog.getByLabel('Senha atual').fill('errada123');
    await dialog.getByLabel(/^Nova senha/).fill('novasenha9');
    await dialog.getByLabel('Confirmar nova senha').fill('novasenha9');
    await dialog.getByRole('button', { name: 'Alterar senha' }).click();
    await expect(dialog.getByText('Senha atual incorreta')).toBeVisible();
    await dialog.getByLabel('Senha atual').fill('inicial123');
    await dialog.getByRole('button', { name: 'Alterar senha' }).click();
    await expect(dialog.getByText('Senha alterada com sucesso')).toBeVisible();
    await dialog.getByRole('button', { name: 'Fechar' }).click();

    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    await login(page, email, 'novasenha9');
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
