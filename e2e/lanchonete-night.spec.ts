import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { arrangeDelivery } from './fixtures';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs } from './helpers';

/**
 * A lanchonete's Friday night as one story (issue 30, "Tests that prove it"): the tables first (a tab
 * with add-ons from two phones, paid in two parts with change), then a delivery that reaches the
 * kitchen and is settled into a register. The two parts run in order; the second is skipped when the
 * first fails. The flows were moved here from comanda.spec.ts and delivery.spec.ts (CI time unchanged).
 */

const SHOTS = '/tmp/h16';

type Auth = { authorization: string };

async function call(page: Page, auth: Auth, method: 'get' | 'post' | 'put', url: string, data?: unknown) {
  const res = await page.request[method](`/v1${url}`, { headers: auth, data });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

/**
 * A category of its own routed to a Cozinha sector on a printer profile of its own (issue 30 item 3):
 * answers the category and a restore of the shop's printing settings.
 */
async function kitchen(page: Page, admin: Auth) {
  const stamp = Date.now() % 100_000;
  const category = await call(page, admin, 'post', '/product-category', { name: `Pizzas ${stamp}` });
  const before = await call(page, admin, 'get', '/printing/settings');
  await call(page, admin, 'put', '/printing/settings', {
    profiles: [
      ...before.profiles,
      {
        key: `forno-${stamp}`,
        name: `Forno ${stamp}`,
        paperWidth: 80,
        columns: 48,
        codePage: 'PC860',
        copies: 1,
        cut: true,
      },
    ],
    sectors: [
      ...before.sectors,
      { key: `forno-${stamp}`, name: 'Forno', profileKey: `forno-${stamp}`, categoryIds: [category.id] },
    ],
    receipt: before.receipt,
    updatedAt: before.updatedAt,
  });
  const restore = async () => {
    const now = await call(page, admin, 'get', '/printing/settings');
    await call(page, admin, 'put', '/printing/settings', {
      profiles: before.profiles,
      sectors: before.sectors,
      receipt: before.receipt,
      updatedAt: now.updatedAt,
    });
  };
  return { categoryId: category.id as number, restore };
}

test.describe
  .serial('the lanchonete night (issue 30)', () => {
    test('at the tables: a tab with add-ons from two phones, a partial payment, the rest in cash with change', async ({
      browser,
      page,
    }) => {
      test.setTimeout(180_000);
      mkdirSync(SHOTS, { recursive: true });
      const stamp = Date.now() % 100_000;
      const admin = { authorization: `Bearer ${await apiLogin(page, demoEmail(1))}` };
      const caixa = { authorization: `Bearer ${await apiLogin(page, demoEmail(4))}` };
      const category = await call(page, admin, 'post', '/product-category', { name: `Porções ${stamp}` });
      const sauces = await call(page, admin, 'post', '/product-additional', {
        name: `Molhos ${stamp}`,
        minQuantity: 0,
        maxQuantity: 2,
        items: [{ name: 'Mostarda e mel', priceCents: 150 }],
      });
      const batata = `Batata Frita ${stamp}`;
      const refri = `Refri ${stamp}`;
      await call(page, admin, 'post', '/product', {
        name: batata,
        salePriceCents: 1200,
        categoryId: category.id,
        additionalGroupIds: [sauces.id],
        stock: 50,
      });
      await call(page, admin, 'post', '/product', {
        name: refri,
        salePriceCents: 600,
        categoryId: category.id,
        stock: 50,
      });
      await closeRegisterViaApi(page, 4);
      await call(page, caixa, 'post', '/cash-register/open', { openingAmountCents: 10000 });

      const phoneOf = async (type: 2 | 5) => {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
        const phone = await context.newPage();
        await loginAs(phone, type);
        await phone.goto('/dashboard/sale/waiter-pdv');
        return { context, phone };
      };
      const search = async (phone: Page, name: string) => {
        await phone.getByLabel('Buscar produto').fill(name);
        await phone
          .getByRole('list', { name: 'Produtos encontrados' })
          .getByRole('button', { name: new RegExp(name) })
          .click();
      };
      const addDraft = async (phone: Page, name: string) => {
        const draft = phone.getByTestId('add-item-draft');
        await expect(draft).toContainText(name);
        await draft.getByRole('button', { name: 'Adicionar' }).click();
        await expect(phone.getByText(`1 x ${name} adicionado`)).toBeVisible();
      };

      try {
        // The garçom's phone: a new tab, a Batata Frita with Mostarda e mel.
        const waiter = await phoneOf(5);
        await waiter.phone.getByRole('button', { name: 'Nova comanda' }).click();
        const dialog = waiter.phone.getByRole('dialog', { name: 'Nova comanda' });
        await dialog.getByLabel('Mesa').fill(`L${stamp}`);
        await dialog.getByRole('button', { name: 'Abrir comanda' }).click();
        const heading = waiter.phone.getByRole('heading', {
          name: new RegExp(`^Comanda \\d+ · Mesa L${stamp}$`),
        });
        await expect(heading).toBeVisible();
        const number = Number(/Comanda (\d+)/.exec((await heading.textContent()) ?? '')?.[1]);
        await search(waiter.phone, batata);
        const options = waiter.phone.getByRole('dialog', { name: batata });
        await options.getByRole('checkbox', { name: /Mostarda e mel/ }).check();
        await options.getByRole('button', { name: 'Adicionar' }).click();
        await addDraft(waiter.phone, batata);

        // The Gerente's phone, covering the floor: the same tab from "Todas", a Refri.
        const manager = await phoneOf(2);
        await manager.phone.getByRole('button', { name: 'Todas' }).click();
        await manager.phone.getByRole('button', { name: `Comanda ${number} mesa L${stamp}` }).click();
        await search(manager.phone, refri);
        await addDraft(manager.phone, refri);
        // The Batata's add-on did not follow the Refri.
        await expect(manager.phone.getByTestId('waiter-line').filter({ hasText: refri })).not.toContainText(
          'Mostarda',
        );

        // The garçom's list: both lines, the add-on with its price, the 10% said.
        const lines = waiter.phone.getByTestId('waiter-line');
        await expect(lines).toHaveCount(2);
        await expect(lines.filter({ hasText: batata })).toContainText('+ Mostarda e mel (R$ 1,50)');
        await expect(lines.filter({ hasText: batata })).toContainText('R$ 13,50');
        const totals = waiter.phone.getByTestId('waiter-totals');
        // 13,50 + 6,00 = 19,50; serviço 10% = 1,95; total 21,45.
        await expect(totals).toContainText('Serviço (10%)R$ 1,95');
        await expect(totals).toContainText('TotalR$ 21,45');
        await waiter.phone.getByRole('button', { name: 'Enviar para produção (2)' }).click();
        await expect(waiter.phone.getByText('Enviado', { exact: true })).toHaveCount(2);

        // The Caixa: R$ 10,00 by Pix first.
        const cashierContext = await browser.newContext();
        const cashier = await cashierContext.newPage();
        await loginAs(cashier, 4);
        await cashier.goto('/dashboard/sale/command');
        await cashier.getByTestId(`comanda-${number}`).click();
        await expect(cashier.getByTestId('figure-Falta')).toHaveText('R$ 21,45');
        await cashier.getByLabel('Valor a receber').fill('10,00');
        await cashier.getByLabel('Forma de pagamento').click();
        await cashier.getByRole('option', { name: 'Pix', exact: true }).click();
        await cashier.getByRole('button', { name: 'Receber R$ 10,00' }).click();
        await expect(cashier.getByTestId('figure-Falta')).toHaveText('R$ 11,45');
        // The garçom sees it on his phone.
        await expect(totals).toContainText('PagoR$ 10,00');
        await expect(totals).toContainText('FaltaR$ 11,45');
        await waiter.phone.screenshot({ path: `${SHOTS}/waiter-partial-390.png`, fullPage: true });

        // The rest in cash from a R$ 20,00 note.
        await cashier.getByRole('button', { name: 'Restante' }).click();
        await cashier.getByLabel('Forma de pagamento').click();
        await cashier.getByRole('option', { name: 'Dinheiro', exact: true }).click();
        await cashier.getByLabel('Valor recebido').fill('20,00');
        await expect(cashier.getByText('Troco: R$ 8,55')).toBeVisible();
        await cashier.getByRole('button', { name: 'Receber R$ 11,45' }).click();
        await expect(cashier.getByTestId('figure-Falta')).toHaveText('R$ 0,00');
        await cashier.getByRole('button', { name: 'Fechar comanda' }).click();
        await expect(cashier.getByText('Comanda fechada na venda.')).toBeVisible();
        // One status on the closed tab.
        await expect(cashier.getByText('Fechada', { exact: true })).toBeVisible();
        await expect(cashier.getByText('Em pagamento', { exact: true })).toHaveCount(0);
        await cashier.getByRole('link', { name: 'Ver venda' }).click();
        await expect(cashier.getByText('Origem: Comanda', { exact: true })).toBeVisible();
        await expect(cashier.getByTestId('sale-notes')).toContainText(`Comanda ${number} · Mesa L${stamp}`);
        await expect(cashier.getByText('Recebido em dinheiro')).toBeVisible();
        await expect(cashier.getByText('R$ 20,00')).toBeVisible();
        await expect(cashier.getByText('R$ 8,55')).toBeVisible();
        await cashier.screenshot({ path: `${SHOTS}/sale-change-1280.png`, fullPage: true });
        await expect(waiter.phone.getByText('Esta comanda foi fechada.')).toBeVisible();

        await waiter.context.close();
        await manager.context.close();
        await cashierContext.close();
      } finally {
        await closeRegisterViaApi(page, 4);
      }
    });

    test('on the phone line: a delivery sold in the PDV reaches the kitchen, the panel shows it live, the driver delivers with the code, the settlement puts the cash in a register', async ({
      browser,
      page,
    }) => {
      test.setTimeout(180_000);
      await closeRegisterViaApi(page, 8);
      const admin = { authorization: `Bearer ${await apiLogin(page, demoEmail(1))}` };
      const oven = await kitchen(page, admin);
      try {
        const { barcode, productName, customerName, driver } = await arrangeDelivery(
          page,
          1,
          oven.categoryId,
        );

        // The manager's panel is open before the sale.
        const managerContext = await browser.newContext();
        const manager = await managerContext.newPage();
        await loginAs(manager, 1);
        await manager.goto('/dashboard/sale/delivery');
        await expect(manager.getByRole('heading', { name: 'Delivery', level: 1 })).toBeVisible();

        // The till sells a delivery order in the PDV, paid on delivery. The seller is the Atendente (a PDV
        // user and the dispatch role): the Caixa's register history belongs to pdv.spec.ts, which counts it.
        await loginAs(page, 8);
        await page.goto('/dashboard/sale/pdv');
        const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
        await opening.getByLabel('Valor de abertura').fill('100,00');
        await opening.getByRole('button', { name: 'Abrir caixa' }).click();
        await expect(opening).toBeHidden();
        await expect(page.getByTestId('pdv-search')).toBeFocused();
        await page.keyboard.type(barcode, { delay: 5 });
        await page.keyboard.press('Enter');
        await expect(page.getByTestId('pdv-line')).toHaveCount(1);
        await page.keyboard.press('F4');
        await page.getByLabel('Buscar cliente por nome, CPF/CNPJ ou telefone (F4)').fill(customerName);
        await page.getByRole('list', { name: 'Clientes encontrados' }).getByText(customerName).click();
        await page.getByRole('radio', { name: 'Entrega' }).check();
        // The address (preselected once the customer's addresses arrived; picked otherwise).
        const addressSelect = page.getByRole('combobox', { name: 'Endereço de entrega' });
        await addressSelect.click();
        await page.getByRole('option', { name: /Praça da Sé/ }).click();
        await expect(page.getByRole('listbox')).toBeHidden();
        await expect(addressSelect).toContainText('Praça da Sé');
        // The shop's freight rule answers first (it fills the freight); then the operator types its own.
        await expect(page.getByTestId('pdv-freight-reason')).toBeVisible();
        await page.getByRole('textbox', { name: 'Frete' }).fill('5,00');
        await expect(page.getByTestId('pdv-final-amount')).toHaveText('R$ 50,00');
        await page.keyboard.press('F6');
        const addPayment = page.getByRole('form', { name: 'Adicionar pagamento' });
        await addPayment.getByLabel('Forma de pagamento').click();
        await page.getByRole('option', { name: 'Pagamento na entrega' }).click();
        await addPayment.getByLabel('Valor').fill('50,00');
        await addPayment.getByRole('button', { name: 'Adicionar' }).click();
        await page
          .getByRole('button', { name: /Finalizar/ })
          .first()
          .click();
        await expect(page.getByRole('button', { name: /Nova venda/ })).toBeVisible();

        // The kitchen got the order's lines once (issue 30 item 3): the Forno sector's ticket.
        const jobs: { kind: string; payload: { title: string; lines: string[] } }[] = await call(
          page,
          admin,
          'get',
          '/printing/jobs',
        );
        const tickets = jobs.filter(
          (j) => j.kind === 'ticket' && j.payload.lines.join('\n').includes(productName),
        );
        expect(tickets).toHaveLength(1);
        expect(tickets[0].payload.title).toMatch(/^Forno - Entrega nº \d+$/);
        expect(tickets[0].payload.lines.join('\n')).toContain(`Cliente: ${customerName}`);

        // It appears on the manager's panel without a reload, in "Novo".
        const newColumn = manager.getByRole('region', { name: 'Novo' });
        const card = newColumn.locator('[data-testid^="delivery-order-"]').filter({ hasText: customerName });
        await expect(card).toBeVisible();
        await expect(card).toContainText('Receber R$ 50,00 em Dinheiro');
        await card.getByRole('button', { name: 'Atribuir entregador' }).click();
        const assign = manager.getByRole('dialog', { name: /Atribuir entregador/ });
        await assign.getByLabel('Entregador').click();
        await manager.getByRole('option', { name: new RegExp(driver.name) }).click();
        await assign.getByRole('button', { name: 'Atribuir' }).click();
        const awaiting = manager.getByRole('region', { name: 'Aguardando coleta' });
        await expect(
          awaiting.locator('[data-testid^="delivery-order-"]').filter({ hasText: customerName }),
        ).toContainText(driver.name);

        // The driver, on a phone: confirms the pickup, then delivers with the code (last 4 digits of the phone).
        const driverContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const phone = await driverContext.newPage();
        await loginAs(phone, 10);
        await expect(phone).toHaveURL(/\/dashboard\/driver\/available/);
        await phone.getByRole('tab', { name: 'Coleta' }).click();
        const toCollect = phone.locator('[data-testid^="delivery-order-"]').filter({ hasText: customerName });
        await toCollect.getByRole('button', { name: 'Confirmar coleta' }).click();
        await phone.getByRole('tab', { name: 'Em trânsito' }).click();
        const inTransit = phone.locator('[data-testid^="delivery-order-"]').filter({ hasText: customerName });
        await expect(inTransit.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute(
          'href',
          'https://wa.me/5511987654321',
        );

        // The manager's panel goes offline meanwhile: after the reconnect it shows what it missed.
        await managerContext.setOffline(true);
        await inTransit.getByRole('button', { name: 'Entregar' }).click();
        const deliverDialog = phone.getByRole('dialog', { name: /Entregar pedido/ });
        await deliverDialog.getByLabel('Código de entrega').fill('0000');
        await deliverDialog.getByRole('button', { name: 'Confirmar entrega' }).click();
        await expect(deliverDialog).toContainText('Código de entrega incorreto');
        await deliverDialog.getByLabel('Código de entrega').fill('4321');
        await deliverDialog.getByRole('button', { name: 'Confirmar entrega' }).click();
        await expect(deliverDialog).toBeHidden();
        // The toast sits above the phone's bottom bar, never over its buttons (issue 30 item 21).
        const toast = phone.getByTestId('feedback-snackbar');
        await expect(toast).toContainText('Entrega confirmada');
        const toastBox = await toast.boundingBox();
        const barBox = await phone.getByTestId('bottom-bar').boundingBox();
        expect(toastBox && barBox && toastBox.y + toastBox.height <= barBox.y).toBe(true);
        await phone.getByRole('tab', { name: 'Entregues' }).click();
        await expect(phone.getByLabel('Totais do dia')).toContainText('Recebido na entrega');
        await expect(
          phone.locator('[data-testid^="delivery-order-"]').filter({ hasText: customerName }),
        ).toBeVisible();
        await phone.screenshot({ path: '/tmp/h18/driver-delivered-390.png', fullPage: true });
        await managerContext.setOffline(false);
        const done = manager.getByRole('region', { name: 'Finalizados hoje' });
        await expect(
          done.locator('[data-testid^="delivery-order-"]').filter({ hasText: customerName }),
        ).toContainText('Entregue', { timeout: 20_000 });
        await manager.screenshot({ path: '/tmp/h18/panel-1280.png', fullPage: true });

        // The home says what the drivers still hold; the settlement shows the cash the driver hands over
        // (this order's R$ 50,00, plus any earlier one's) and puts it in the Atendente's open register.
        await manager.goto('/dashboard');
        await expect(manager.getByTestId('home-drivers')).toContainText('A receber dos entregadores');
        const attendant = { authorization: `Bearer ${await apiLogin(page, demoEmail(8))}` };
        const till = (await call(page, attendant, 'get', '/cash-register/current')).cashRegister;
        await manager.goto('/dashboard/sale/delivery/settlement');
        await manager.getByLabel('Entregador').click();
        await manager.getByRole('option', { name: driver.name }).click();
        const table = manager.getByRole('table', { name: 'Entregas do acerto' });
        await expect(table.getByRole('row').filter({ hasText: customerName })).toContainText('R$ 50,00');
        await expect(manager.getByLabel('Resumo do acerto')).toContainText('A devolver pelo entregador');
        const summary = await manager.getByLabel('Resumo do acerto').innerText();
        expect(summary).toMatch(/A devolver pelo entregador\s*R\$\s*[\d.]+,\d{2}/);
        await manager.getByLabel('Caixa que recebe').click();
        await manager.getByRole('option', { name: `Caixa de ${till.user.name}` }).click();
        await manager.getByLabel('Valor contado').fill('50,00');
        await manager.getByRole('button', { name: 'Confirmar acerto' }).click();
        await expect(manager.getByLabel('Relatório do acerto')).toContainText(driver.name);
        await expect(manager.getByRole('table', { name: 'Histórico de acertos' })).toContainText(driver.name);
        await manager.screenshot({ path: '/tmp/h18/settlement-1280.png', fullPage: true });
        // At 390 px the acerto's deliveries and the history are cards: nothing pushes the page sideways.
        await manager.setViewportSize({ width: 390, height: 844 });
        await expect(manager.getByRole('button', { name: 'Ver' }).first()).toBeVisible();
        expect(await manager.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await manager.screenshot({ path: '/tmp/h18/settlement-390.png', fullPage: true });
        // The cash is in the Atendente's register, as a suprimento of the acerto.
        const after = (await call(page, attendant, 'get', '/cash-register/current')).cashRegister;
        expect(after.movements).toContainEqual(
          expect.objectContaining({
            type: 'deposit',
            amountCents: 5000,
            reason: `Acerto de ${driver.name}: dinheiro recebido`,
          }),
        );

        await managerContext.close();
        await driverContext.close();
      } finally {
        // Restore: the printing settings as they were, the Atendente's register closed again.
        await oven.restore();
        await closeRegisterViaApi(page, 8);
      }
    });
  });
