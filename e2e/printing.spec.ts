import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { loginAs } from './helpers.ts';

const PRINTER = '/dashboard/settings/printer';
const SHOTS = '/tmp/h14b';
/** The fake Asaas playwright.config.ts starts (E2E_PORT + 600). */
const ASAAS = `http://127.0.0.1:${Number(process.env.E2E_ASAAS_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 600)}`;

declare global {
  interface Window {
    __printed: { text: string; css: string }[];
    /** How many next prints fail (a printer out of paper). */
    __failPrints: number;
  }
}

/**
 * The browser's print dialog cannot be driven from a test: window.print is replaced by a recorder of
 * what was on the print area when the station printed (its text and the print CSS sized to the paper).
 */
async function recordPrints(page: Page) {
  await page.addInitScript(() => {
    window.__printed = [];
    window.__failPrints = 0;
    window.print = () => {
      if (window.__failPrints > 0) {
        window.__failPrints--;
        throw new Error('sem papel');
      }
      const area = document.getElementById('print-area');
      window.__printed.push({
        text: area?.querySelector('pre')?.textContent ?? '',
        css: area?.querySelector('style')?.textContent ?? '',
      });
    };
  });
}

/** The session token the web app keeps in its cookie. */
async function senderToken(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  const token = cookies.find((c) => c.name === 'balcao_token')?.value;
  if (!token) throw new Error(`no token cookie: ${cookies.map((c) => c.name).join(', ')}`);
  return decodeURIComponent(token);
}

async function profileId(page: Page): Promise<number> {
  const res = await page.request.get('/v1/printing/settings', {
    headers: { authorization: `Bearer ${await senderToken(page)}` },
  });
  const { profiles } = (await res.json()) as { profiles: { id: number; name: string }[] };
  const profile = profiles.find((p) => p.name === 'Balcão 58');
  if (!profile) throw new Error('no "Balcão 58" profile');
  return profile.id;
}

test('a station tab prints a test page sent from another browser, and the sender sees it printed', async ({
  browser,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  // The sender: the Administrador saves a profile.
  const senderContext = await browser.newContext();
  const sender = await senderContext.newPage();
  await loginAs(sender, 1);
  await sender.goto(PRINTER);
  await expect(sender.getByRole('heading', { name: 'Impressora', level: 1 })).toBeVisible();
  // The shop may already have profiles (the specs before this one add theirs): the new one is the last.
  await expect(sender.getByRole('button', { name: 'Adicionar perfil' })).toBeEnabled();
  const existing = await sender.getByRole('group', { name: /^Perfil \d+$/ }).count();
  await sender.getByRole('button', { name: 'Adicionar perfil' }).click();
  const profile = sender.getByRole('group', { name: `Perfil ${existing + 1}` });
  await profile.getByLabel('Nome').fill('Balcão 58');
  await profile.getByLabel('Papel').click();
  await sender.getByRole('option', { name: '58 mm' }).click();
  // Issue 30: the paper sets its columns (58 mm: 32), not the 48 of the 80 mm default.
  await expect(profile.getByLabel('Colunas')).toHaveText('32');
  await profile.getByLabel('Colunas').click();
  await sender.getByRole('option', { name: '48' }).click();
  await sender.getByRole('button', { name: 'Salvar' }).click();
  // 58 mm paper holds 32 columns: the rule shows on the field.
  await expect(profile.getByText('Papel de 58 mm imprime no máximo 42 colunas')).toBeVisible();
  await profile.getByLabel('Colunas').click();
  await sender.getByRole('option', { name: '32' }).click();
  await sender.getByRole('button', { name: 'Salvar' }).click();
  await expect(sender.getByText('Configurações de impressão salvas')).toBeVisible();
  await expect(sender.getByText(/^Alterado por .+ em \d{2}\/\d{2}\/\d{4}/)).toBeVisible();

  // The station: another logged browser (the Gerente's) turns itself into a station of that profile.
  const stationContext = await browser.newContext();
  const station = await stationContext.newPage();
  await recordPrints(station);
  await loginAs(station, 2);
  await station.goto(PRINTER);
  await station.getByLabel('Nome da estação').fill('Caixa da frente');
  await station.getByRole('checkbox', { name: 'Balcão 58 (58 mm)' }).check();
  await station.getByRole('button', { name: 'Ativar estação' }).click();
  await expect(station.getByText('Estação ativa')).toBeVisible();
  await expect(sender.getByText('Caixa da frente: Balcão 58')).toBeVisible();

  await profile.getByRole('button', { name: 'Imprimir página de teste' }).click();
  await expect.poll(() => station.evaluate(() => window.__printed.length), { timeout: 15_000 }).toBe(1);
  const [printed] = await station.evaluate(() => window.__printed);
  expect(printed.text).toContain('PÁGINA DE TESTE');
  expect(printed.text).toContain('Balcão 58');
  expect(printed.text).toContain('Colunas: 32');
  expect(printed.text).toContain('áàâãéêíóôõúç');
  expect(printed.css).toContain('size: 58mm auto');

  // The sender's list follows the job to "Impresso" (socket change), with the station's name.
  const jobs = sender.getByRole('table', { name: 'Impressões recentes' });
  const row = jobs.getByRole('row', { name: /Página de teste: Balcão 58/ });
  await expect(row.getByText('Impresso')).toBeVisible();
  await expect(row.getByText('Caixa da frente')).toBeVisible();

  // An explicit reprint prints again, marked REIMPRESSÃO; the station stays one after a reload.
  await station.reload();
  await expect(station.getByText('Estação ativa')).toBeVisible();
  await row.getByRole('button', { name: 'Reimprimir' }).click();
  await expect
    .poll(() => station.evaluate(() => window.__printed.map((p) => p.text)), { timeout: 15_000 })
    .toEqual([expect.stringContaining('*** REIMPRESSÃO ***')]);

  // A print that fails shows to its sender on any page, with a retry that prints it.
  await station.evaluate(() => {
    window.__failPrints = 1;
  });
  const auth = { authorization: `Bearer ${await senderToken(sender)}` };
  const sent = await sender.request.post('/v1/printing/job', {
    headers: auth,
    data: {
      profileId: await profileId(sender),
      kind: 'document',
      payload: { title: 'Pedido 42', lines: ['1 Pastel de queijo'] },
      idempotencyKey: 'e2e-pedido-42',
    },
  });
  const jobId = (await sent.json()).id as number;
  await expect
    .poll(
      async () =>
        (await (await sender.request.get(`/v1/printing/job/${jobId}`, { headers: auth })).json()).status,
    )
    .toBe('failed');
  await sender.goto('/dashboard');
  const problem = sender.getByTestId('print-problem');
  await expect(problem).toContainText('Pedido 42 (Balcão 58): falhou - O navegador não conseguiu imprimir');
  await problem.getByRole('button', { name: 'Tentar de novo' }).click();
  await expect(problem).toHaveCount(0);
  await expect
    .poll(() => station.evaluate(() => window.__printed.map((p) => p.text)), { timeout: 15_000 })
    .toEqual([expect.stringContaining('REIMPRESSÃO'), '1 Pastel de queijo']);

  await sender.goto(PRINTER);
  for (const [name, page] of [
    ['sender', sender],
    ['station', station],
  ] as const) {
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => localStorage.setItem('balcao:theme', t), theme);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.reload();
        await expect(page.getByRole('heading', { name: 'Impressora', level: 1 })).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/printer-${name}-${theme}-${width}.png`, fullPage: true });
      }
    }
  }
  await senderContext.close();
  await stationContext.close();
});

test('billing is the Administrador’s: plan, the month’s invoice paid by Pix, marked paid by the webhook', async ({
  page,
}) => {
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/billing');
  await expect(page.getByRole('heading', { name: 'Assinatura', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Plano Ilimitado' })).toBeVisible();
  await expect(page.getByText('Plano atual')).toBeVisible();
  const invoices = page.getByRole('table', { name: 'Faturas' });
  await expect(invoices.getByText('Pendente')).toBeVisible();
  await expect(invoices.getByText('R$ 249,90')).toBeVisible();
  // Pix through the gateway (the fake Asaas of playwright.config.ts): QR code and copy-paste code.
  await invoices.getByRole('button', { name: 'Pix' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Pagar com Pix' });
  await expect(dialog.getByRole('img', { name: 'QR Code Pix' })).toBeVisible();
  await expect(dialog.getByLabel('Pix copia e cola')).toHaveValue(/^000201/);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: `${SHOTS}/billing-pix-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByRole('button', { name: 'Fechar' }).click();
  // Asaas receives the payment and calls the webhook: the invoice turns paid on screen, no reload.
  const paid = await page.request.post(`${ASAAS}/__test/pay-latest`);
  expect(await paid.json()).toEqual({ received: true, processed: true });
  await expect(invoices.getByText('Paga', { exact: true })).toBeVisible();
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('balcao:theme', t), theme);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Assinatura', level: 1 })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/billing-${theme}-${width}.png`, fullPage: true });
    }
  }
});

test('the billing page is closed to a Gerente and missing from the menu', async ({ page }) => {
  await loginAs(page, 2);
  await page.goto('/dashboard/settings/billing');
  await expect(page).toHaveURL(/not-have-permission/);
});
