import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs } from './helpers';

const stamp = Date.now().toString().slice(-7);

/** A PNG logo (a red square with a white band), made in the browser so no file ships with the test. */
async function logoPng(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 300;
    canvas.height = 120;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no canvas');
    ctx.fillStyle = '#c62828';
    ctx.fillRect(0, 0, 300, 120);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 50, 300, 20);
    return canvas.toDataURL('image/png').split(',')[1];
  });
  return Buffer.from(base64, 'base64');
}

/**
 * Settings (issue 14): a flag switched on the company page leaves another logged user's menu at once
 * (socket `change session`, the session reloads: no page reload).
 */
test('switching Comandas off on the company page takes it out of another user’s menu without a reload', async ({
  page,
  browser,
}) => {
  // The Garçom, in another browser, on the home page.
  const other = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  const waiter = await other.newPage();
  await loginAs(waiter, 5);
  await waiter.goto('/dashboard');
  const waiterMenu = waiter.getByRole('navigation', { name: 'Menu principal' });
  await expect(waiterMenu.getByRole('link', { name: 'Comandas' })).toBeVisible();
  let loads = 0;
  waiter.on('load', () => loads++);

  // The Administrador switches Comandas off.
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/system-client');
  await expect(page).toHaveTitle('Dados da empresa | Balcão');
  await expect(page.getByTestId('changed-by')).toHaveText('Ainda não alterado: valores padrão.');
  const comandas = page.getByRole('switch', { name: 'Comandas' });
  await expect(comandas).toBeChecked();
  await expect(
    page.getByText('Comandas: abre e fecha comandas de mesa ou balcão (menu Vendas > Comandas).'),
  ).toBeVisible();
  await comandas.click();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Configurações salvas')).toBeVisible();
  await expect(page.getByTestId('changed-by')).toContainText('Última alteração: Administrador Demo');

  // Gone from both menus; the Garçom's page never reloaded.
  await expect(
    page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Comandas' }),
  ).toHaveCount(0);
  await expect(waiterMenu.getByRole('link', { name: 'Comandas' })).toHaveCount(0);
  expect(loads).toBe(0);

  // And back on.
  await page.getByRole('switch', { name: 'Comandas' }).click();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(waiterMenu.getByRole('link', { name: 'Comandas' })).toBeVisible();
  expect(loads).toBe(0);
  await other.close();
});

test('the company logo and receipt texts show in the top bar and on the receipt', async ({ page }) => {
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/system-client');
  await page.getByLabel('Arquivo do logotipo').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: await logoPng(page),
  });
  await expect(page.getByTestId('company-logo')).toBeVisible();
  await expect(page.getByTestId('topbar-logo')).toBeVisible();
  const logoUrl = await page.getByTestId('company-logo').getAttribute('src');
  expect(logoUrl).toMatch(/^\/v1\/settings\/logo\/\d+\/[a-f0-9]{32}\.png$/);

  await page.getByLabel('Rodapé do comprovante').fill(`Trocas em 7 dias ${stamp}`);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Configurações salvas')).toBeVisible();

  // A sale through the API, then its receipt.
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const opened = await page.request.post('/v1/cash-register/open', {
    headers,
    data: { openingAmountCents: 0 },
  });
  expect([201, 409]).toContain(opened.status());
  const sold = await page.request.post('/v1/sale/simple', {
    headers: { ...headers, 'idempotency-key': `logo-${stamp}` },
    data: { description: 'Serviço', valueCents: 1500, payments: [{ method: 'pix', amountCents: 1500 }] },
  });
  expect(sold.status()).toBe(201);
  await page.goto(`/dashboard/sale/detail/${(await sold.json()).id}`);
  await page.getByRole('button', { name: 'Reimprimir' }).click();
  const dialog = page.getByRole('dialog', { name: 'Comprovante' });
  await expect(dialog.getByTestId('receipt-logo')).toHaveAttribute('src', logoUrl ?? '');
  await expect(dialog.getByTestId('receipt')).toContainText(`Trocas em 7 dias ${stamp}`);
  await expect(dialog.getByTestId('receipt')).not.toContainText('Obrigado pela preferência!');
  // The image really loads (public URL, no token).
  expect(await dialog.getByTestId('receipt-logo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(
    300,
  );
});

test('a Vendedor’s discount above the limit asks a manager at the PDV; the sale detail names the manager', async ({
  page,
}) => {
  const token = await apiLogin(page, demoEmail(1));
  const product = await page.request.post('/v1/product', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: `Cafeteira ${stamp}`, salePriceCents: 20000, stockControl: false },
  });
  expect(product.status(), await product.text()).toBe(201);

  await closeRegisterViaApi(page, 3);
  await loginAs(page, 3);
  await page.goto('/dashboard/sale/pdv');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('0,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();
  await page.getByTestId('pdv-search').fill(`Cafeteira ${stamp}`);
  await page.getByRole('list', { name: 'Produtos encontrados' }).getByText(`Cafeteira ${stamp}`).click();
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  const discount = page.getByLabel(`Desconto em Cafeteira ${stamp} (R$ ou %)`);
  await discount.fill('50%');
  await discount.press('Enter');
  await expect(page.getByTestId('pdv-final-amount')).toHaveText('R$ 100,00');
  await expect(page.getByTestId('discount-over-limit')).toHaveText(
    'Desconto acima do seu limite (10% por item): um gerente precisará aprovar.',
  );

  await page.keyboard.press('F6');
  const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
  await addPayment.getByLabel('Forma de pagamento').click();
  await page.getByRole('option', { name: 'Pix', exact: true }).click();
  await addPayment.getByLabel('Valor').fill('100,00');
  await addPayment.getByRole('button', { name: 'Adicionar' }).click();
  await page.keyboard.press('F9');

  const approval = page.getByRole('dialog', { name: 'Aprovação do desconto' });
  await expect(approval).toContainText(
    'Desconto acima do seu limite (10% por item): peça a aprovação de um Administrador ou Gerente',
  );
  mkdirSync('/tmp/h14a', { recursive: true });
  await page.screenshot({ path: '/tmp/h14a/pdv-approval-1280-light.png' });
  await approval.getByLabel('Email do gerente').fill(demoEmail(2));
  await approval.getByLabel('Senha do gerente').fill('senha-errada');
  await approval.getByRole('button', { name: 'Aprovar e finalizar' }).click();
  await expect(approval).toContainText(
    'Aprovação recusada: email ou senha de Administrador/Gerente incorretos',
  );
  await approval.getByLabel('Senha do gerente').fill('demo1234');
  await approval.getByRole('button', { name: 'Aprovar e finalizar' }).click();
  await expect(approval).toBeHidden();
  await expect(page.getByText(/Venda nº \d+ finalizada/)).toBeVisible();

  await page.getByRole('link', { name: 'Ver detalhes' }).click();
  await expect(page.getByTestId('discount-approved-by')).toHaveText(
    'Desconto acima do limite aprovado por Gerente Demo',
  );
});

test('working hours: the menu item follows the flag, the top bar says Aberto/Fechado and the PDV warns', async ({
  page,
}) => {
  await loginAs(page, 2);
  const menu = page.getByRole('navigation', { name: 'Menu principal' });
  await page.goto('/dashboard');
  await expect(menu.getByRole('link', { name: 'Horário de funcionamento' })).toHaveCount(0);
  await expect(page.getByTestId('shop-status')).toHaveCount(0);

  await page.goto('/dashboard/settings/system-client');
  await page.getByRole('switch', { name: 'Horário de funcionamento' }).click();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Configurações salvas')).toBeVisible();
  await menu.getByRole('link', { name: 'Horário de funcionamento' }).click();
  await expect(page).toHaveTitle('Horário de funcionamento | Balcão');
  // No hours yet: closed.
  await expect(page.getByTestId('shop-status').first()).toContainText('Fechado');

  // Pause with a reason: still closed, the reason shown; then open all week around the clock.
  for (const day of ['Domingo', 'Segunda', 'Terça', 'Quarta', 'Quinta', 'Sexta', 'Sábado']) {
    await page.getByRole('button', { name: `Adicionar horário a ${day}` }).click();
    await page.getByLabel(`${day}: início 1`).fill('00:00');
    await page.getByLabel(`${day}: fim 1`).fill('00:00');
  }
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('O início e o fim não podem ser iguais').first()).toBeVisible();
  for (const day of ['Domingo', 'Segunda', 'Terça', 'Quarta', 'Quinta', 'Sexta', 'Sábado']) {
    await page.getByLabel(`${day}: fim 1`).fill('23:59');
  }
  await page.getByRole('switch', { name: 'Pausar' }).click();
  await page.getByLabel('Motivo').fill('Falta de energia');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Configurações salvas')).toBeVisible();
  await expect(page.getByTestId('shop-status').first()).toContainText('Fechado (Falta de energia)');
  await expect(page.getByTestId('changed-by')).toContainText('Última alteração: Gerente Demo');

  // The PDV warns but still sells.
  await page.goto('/dashboard/sale/pdv');
  await expect(page.getByTestId('closed-warning')).toHaveText(
    'A loja está fechada agora (Falta de energia). Você ainda pode registrar vendas.',
  );
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: '/tmp/h14a/pdv-closed-390-light.png' });
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.goto('/dashboard/settings/working-hour');
  await page.getByRole('switch', { name: 'Pausar' }).click();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Configurações salvas')).toBeVisible();
  await expect(page.getByTestId('shop-status').first()).toContainText('Aberto');

  // Switched off again (as the demo shop comes and the other specs expect it): the item leaves the menu.
  await page.goto('/dashboard/settings/system-client');
  await page.getByRole('switch', { name: 'Horário de funcionamento' }).click();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Configurações salvas')).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Horário de funcionamento' })).toHaveCount(0);
  await expect(page.getByTestId('shop-status')).toHaveCount(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`settings pages: no serious or critical axe violation; screenshots at 1280 and 390 px (${scheme} theme)`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const dir = '/tmp/h14a';
    mkdirSync(dir, { recursive: true });
    const problems: string[] = [];
    // The working-hours page opens only with checkIsOpen: switch it on through the API if needed.
    const headers = { authorization: `Bearer ${await apiLogin(page, demoEmail(1))}` };
    const setCheckIsOpen = async (checkIsOpen: boolean) => {
      const company = await (await page.request.get('/v1/settings/company', { headers })).json();
      if (company.checkIsOpen === checkIsOpen) return false;
      const { logoUrl: _l, updatedBy: _u, ...body } = company;
      const saved = await page.request.put('/v1/settings/company', {
        headers,
        data: { ...body, checkIsOpen },
      });
      expect(saved.status(), await saved.text()).toBe(200);
      return true;
    };
    const switchedOn = await setCheckIsOpen(true);
    await page.emulateMedia({ colorScheme: scheme });
    await loginAs(page, 1);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of [
        ['company', '/dashboard/settings/system-client'],
        ['system', '/dashboard/settings/system'],
        ['working-hour', '/dashboard/settings/working-hour'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByTestId('changed-by')).toBeVisible();
        await page.screenshot({ path: `${dir}/${name}-${width}-${scheme}.png`, fullPage: true });
        if (width !== 1280) continue;
        const result = await new AxeBuilder({ page }).analyze();
        for (const v of result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
          problems.push(
            `${name}: ${v.id} ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
          );
      }
    }
    // Leave the demo shop as it was (the other specs expect working hours off).
    if (switchedOn) await setCheckIsOpen(false);
    expect(problems).toEqual([]);
  });
}
