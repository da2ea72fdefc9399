import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type FakeMelhorEnvio, startFakeMelhorEnvio } from '../apps/api/test/fakes/freight';
import { ean13 } from './fixtures';
import { apiLogin, demoEmail, loginAs } from './helpers';

const stamp = Date.now().toString().slice(-7);
/** The fake Melhor Envio's port: the server's MELHOR_ENVIO_* hosts point there (playwright.config.ts). */
const ME_PORT = Number(process.env.E2E_MELHOR_ENVIO_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 800);
const SHOTS = process.env.SHOTS_DIR;

/** Screenshots at 1280 and 390 px, light and dark, when SHOTS_DIR is set (looking at the screens). */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (size) await page.setViewportSize(size);
}

/** The PDV asks to open the register when the user has none open (the first test opens it). */
async function openRegisterIfAsked(page: Page) {
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  const search = page.getByTestId('pdv-search');
  // Either the opening dialog or the open register's chip, once the register is known.
  await expect(opening.or(page.getByTestId('register-chip')).first()).toBeVisible();
  if (await opening.isVisible()) {
    await opening.getByLabel('Valor de abertura').fill('50,00');
    await opening.getByRole('button', { name: 'Abrir caixa' }).click();
    await expect(opening).toBeHidden();
  }
  await expect(search).toBeVisible();
}

let me: FakeMelhorEnvio;
test.beforeAll(async () => {
  me = await startFakeMelhorEnvio(ME_PORT);
});
test.afterAll(async () => {
  await me.close();
});

test('own delivery: create a neighbourhood rule, sell a delivery in the PDV and see the fee with its reason', async ({
  page,
}) => {
  // Arrange: a product with stock and a customer living in Centro.
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const barcode = ean13(`201${stamp}01`);
  const product = await page.request.post('/v1/product', {
    headers,
    data: { name: `Pizza ${stamp}`, salePriceCents: 4000, barcode, stock: 10 },
  });
  expect(product.status(), await product.text()).toBe(201);
  const customerName = `Cliente Entrega ${stamp}`;
  const customer = await page.request.post('/v1/customer', {
    headers,
    data: {
      name: customerName,
      addresses: [
        {
          zipCode: '01001-000',
          street: 'Praça da Sé',
          number: '10',
          neighborhood: 'Centro',
          city: 'São Paulo',
          state: 'SP',
          isDefault: true,
        },
      ],
    },
  });
  expect(customer.status(), await customer.text()).toBe(201);

  await loginAs(page, 1);
  await page.goto('/dashboard/settings/shipping-settings');
  await expect(page).toHaveTitle('Configurações de entrega | Balcão');
  await page.getByRole('link', { name: 'Nova regra' }).click();
  const form = page.getByRole('form', { name: 'Regra de entrega' });
  await form.getByLabel('Nome').fill(`Bairros ${stamp}`);
  // Saving without a neighbourhood says what is missing.
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(form.getByText('Cadastre ao menos um bairro com a taxa')).toBeVisible();
  await form.getByRole('button', { name: 'Adicionar bairro' }).first().click();
  const hoods = form.getByRole('group', { name: 'Bairros atendidos' });
  await hoods.getByLabel('Bairro', { exact: true }).fill('Centro');
  await hoods.getByLabel('Taxa', { exact: true }).fill('5,00');
  await hoods.getByLabel('Tempo (min)', { exact: true }).fill('30');
  await form.getByLabel('Regra padrão do PDV').check();
  await shoot(page, 'rule-form');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/shipping-settings$/);
  await expect(page.getByText('Regra de entrega cadastrada')).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(`Bairros ${stamp}`) });
  await expect(row).toContainText('Por bairro · 1 bairro');
  await expect(row).toContainText('Padrão');
  await shoot(page, 'rule-list');

  // Sell it as a delivery at the PDV.
  await page.goto('/dashboard/sale/pdv');
  await openRegisterIfAsked(page);
  await expect(page.getByTestId('pdv-search')).toBeFocused();
  await page.keyboard.type(barcode, { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pdv-line')).toHaveCount(1);
  await page.keyboard.press('F4');
  // A delivery with no customer yet cannot finish, and the till says why (issue 30 item 4).
  await page.getByLabel('Entrega', { exact: true }).check();
  await expect(page.getByTestId('pdv-needs-address')).toHaveText(
    'Escolha o cliente e o endereço de entrega para finalizar.',
  );
  await page.getByLabel('Retirada na loja', { exact: true }).check();
  await expect(page.getByTestId('pdv-needs-address')).toBeHidden();
  await page.getByLabel(/Buscar cliente/).fill(customerName);
  await page.getByRole('list', { name: 'Clientes encontrados' }).getByText(customerName).click();
  await expect(page.getByTestId('pdv-customer')).toHaveText(customerName);
  await page.getByLabel('Entrega', { exact: true }).check();
  await expect(page.getByTestId('pdv-needs-address')).toBeHidden();
  await expect(page.getByTestId('pdv-freight-reason')).toHaveText(
    'Bairro Centro: R$ 5,00 · entrega em até 30 min',
  );
  await expect(page.getByRole('textbox', { name: 'Frete', exact: true })).toHaveValue('5,00');
  await expect(page.getByTestId('pdv-final-amount')).toHaveText('R$ 45,00');
  await shoot(page, 'pdv-delivery');

  await page.keyboard.press('F6');
  const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
  await addPayment.getByLabel('Forma de pagamento').click();
  await page.getByRole('option', { name: 'Pix', exact: true }).click();
  await addPayment.getByLabel('Valor').fill('45,00');
  await addPayment.getByRole('button', { name: 'Adicionar' }).click();
  await page.keyboard.press('F9');
  await expect(page.getByText(/Venda nº \d+ finalizada/)).toBeVisible();
  await expect(page.getByTestId('receipt')).toContainText(/Frete\s+5,00/);
});

test('Melhor Envio: connect with OAuth2, simulate a quote, see the services, use one in a sale', async ({
  page,
}) => {
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/melhor-envio/settings');
  await expect(page).toHaveTitle('Melhor Envio | Balcão');
  const settings = page.getByRole('form', { name: 'Configurações do Melhor Envio' });
  await expect(page.getByTestId('melhor-envio-status')).toHaveText('Não conectado');
  // No address field: the carrier's hosts are the server's configuration.
  await expect(settings.getByLabel('URL da API')).toHaveCount(0);
  await settings.getByLabel('Client ID').fill(me.clientId);
  await settings.getByLabel('Client Secret').fill(me.clientSecret);
  await settings.getByLabel('CEP de origem').fill('01001000');
  // The default box, used by the simulator without asking.
  await settings.getByLabel('Altura').fill('10');
  await settings.getByLabel('Largura').fill('15');
  await settings.getByLabel('Comprimento').fill('20');
  await settings.getByLabel('Peso').fill('1');
  await settings.getByLabel('Correios Mini Envios').check();
  await settings.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Configurações do Melhor Envio salvas')).toBeVisible();
  // The secret never comes back to the browser.
  await expect(settings.getByLabel(/Client Secret/)).toHaveValue('');

  // Connect: Melhor Envio (the fake) approves and sends the browser back with a code and the state.
  await page.getByRole('button', { name: 'Conectar com Melhor Envio' }).click();
  await expect(page.getByText('Melhor Envio conectado')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/settings\/melhor-envio\/settings$/);
  await expect(page.getByTestId('melhor-envio-status')).toContainText(
    'Conectado pelo Melhor Envio (OAuth), expira em',
  );
  await shoot(page, 'melhor-envio-settings');

  await page.goto('/dashboard/freight/melhor-envio');
  await expect(page).toHaveTitle('Frete Melhor Envio | Balcão');
  // A CEP the lookup cannot answer: the page has no address fields to fill, so it says nothing about them.
  await page.getByLabel('CEP de destino').fill('09999999');
  await expect(
    page.getByText('Não foi possível consultar o endereço deste CEP agora. A cotação funciona mesmo assim.'),
  ).toBeVisible();
  await expect(page.getByText(/endereço manualmente/)).toHaveCount(0);
  await page.getByLabel('CEP de destino').fill('30130010');
  await expect(page.getByText('Praça Sete de Setembro, Centro, Belo Horizonte/MG')).toBeVisible();
  // The default box is already there: nothing to type.
  await expect(page.getByLabel('Altura')).toHaveValue('10');
  await expect(page.getByLabel('Largura')).toHaveValue('15');
  await expect(page.getByLabel('Comprimento')).toHaveValue('20');
  await expect(page.getByLabel('Peso')).toHaveValue('1');
  await expect(page.getByTestId('freight-box-hint')).toHaveText(
    'Caixa padrão da transportadora. Altere se este envio for diferente.',
  );
  await page.getByLabel('Valor da nota').fill('100,00');
  await page.getByRole('button', { name: 'Cotar frete' }).click();
  const table = page.getByRole('table', { name: 'Cotações' });
  // PAC (10 + 5 + 3) x 1,1 = 19,80; SEDEX 23,10; Mini Envios 72,60 (the fake's prices with the panel's 10%).
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row').nth(1)).toContainText('PAC');
  await expect(table.getByRole('row').nth(1)).toContainText('R$ 19,80');
  await expect(table.getByRole('row').nth(1)).toContainText('6 a 8 dias úteis');
  await page.getByRole('button', { name: 'Menor prazo' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('SEDEX');
  await expect(table.getByRole('row').nth(1)).toContainText('2 a 4 dias úteis');
  await shoot(page, 'simulator');

  // The carrier fails: a clear message, never a raw status code.
  me.mode = 'down';
  await page.getByLabel('CEP de destino').fill('80010010');
  await page.getByRole('button', { name: 'Cotar frete' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText('O Melhor Envio está indisponível no momento.');
  await expect(table).not.toContainText('503');
  me.mode = 'ok';
  await page.getByLabel('CEP de destino').fill('30130010');
  await page.getByRole('button', { name: 'Cotar frete' }).click();
  await expect(table.getByRole('row')).toHaveCount(4);

  // One click: the quote becomes the next sale's delivery freight.
  await table.getByRole('row').nth(1).getByRole('button', { name: 'Usar na venda' }).click();
  await expect(page).toHaveURL(/\/dashboard\/sale\/pdv$/);
  await openRegisterIfAsked(page);
  await page.keyboard.press('F4');
  await expect(page.getByText('Frete da transportadora: Correios SEDEX (R$ 23,10)')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Frete', exact: true })).toHaveValue('23,10');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`shipping pages have no serious or critical axe violation (${scheme} theme)`, async ({ page }) => {
    // Six pages analysed: more than the default minute on a busy machine.
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    const problems: string[] = [];
    const check = async (label: string) => {
      const result = await new AxeBuilder({ page }).analyze();
      for (const v of result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
        problems.push(
          `${label}: ${v.id} ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
        );
    };
    await loginAs(page, 1);
    const pages: [string, string][] = [
      ['/dashboard/settings/shipping-settings', 'Configurações de entrega'],
      ['/dashboard/settings/shipping-settings/crud', 'Nova regra de entrega'],
      ['/dashboard/settings/melhor-envio/settings', 'Melhor Envio'],
      ['/dashboard/settings/rodonaves', 'Rodonaves'],
      ['/dashboard/freight/melhor-envio', 'Frete Melhor Envio'],
      ['/dashboard/freight/rodonaves', 'Frete Rodonaves'],
    ];
    for (const [path, heading] of pages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await check(path);
      if (path === '/dashboard/settings/rodonaves') await shoot(page, 'rodonaves-settings');
    }
    expect(problems).toEqual([]);
  });
}
