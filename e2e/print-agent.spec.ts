import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { decodeEscpos, startFakePrinter, textOf } from '../apps/api/test/fakes/escposPrinter.ts';
import { PrintAgent } from '../apps/print-agent/src/agent.ts';
import { apiLogin, demoEmail, loginAs } from './helpers.ts';

const SHOTS = '/tmp/h-agent';
const PORT = Number(process.env.E2E_PORT ?? 3100);
/** The fake network printer (raw TCP like port 9100): 12000 + the last digits of the e2e port. */
const PRINTER_PORT = 12000 + (PORT % 1000);

type Auth = { authorization: string };
async function call(
  request: APIRequestContext,
  auth: Auth,
  method: 'get' | 'post' | 'put' | 'delete',
  url: string,
  data?: unknown,
) {
  const res = await request[method](`/v1${url}`, { headers: auth, data });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

test("print agent: paired from Configurações > Impressoras, the garçom's kitchen ticket prints on the thermal printer with no dialog", async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  mkdirSync(SHOTS, { recursive: true });
  const stamp = Date.now() % 100_000;
  const admin = { authorization: `Bearer ${await apiLogin(page, demoEmail(1))}` };
  const printer = await startFakePrinter(PRINTER_PORT);

  // Arrange: a category routed to a Cozinha sector on a profile of its own, a product in it.
  const category = await call(page.request, admin, 'post', '/product-category', { name: `Pratos ${stamp}` });
  const dish = `Feijoada à moda ${stamp}`;
  const dishProduct = await call(page.request, admin, 'post', '/product', {
    name: dish,
    salePriceCents: 3500,
    categoryId: category.id,
    stock: 50,
  });
  const before = await call(page.request, admin, 'get', '/printing/settings');
  const profileName = `Térmica ${stamp}`;
  await call(page.request, admin, 'put', '/printing/settings', {
    profiles: [
      ...before.profiles,
      {
        key: `termica-${stamp}`,
        name: profileName,
        paperWidth: 80,
        columns: 48,
        codePage: 'PC860',
        copies: 1,
        cut: true,
      },
    ],
    sectors: [
      ...before.sectors,
      {
        key: `cozinha-${stamp}`,
        name: 'Cozinha',
        profileKey: `termica-${stamp}`,
        categoryIds: [category.id],
      },
    ],
    receipt: before.receipt,
    updatedAt: before.updatedAt,
  });

  let agent: PrintAgent | null = null;
  let agentId: number | null = null;
  try {
    // The Administrador makes the pairing code on the printer page.
    await loginAs(page, 1);
    await page.goto('/dashboard/settings/printer');
    const card = page.getByTestId('agents-card');
    await card.getByRole('button', { name: 'Parear um agente' }).click();
    await card.getByLabel('Nome do agente').fill(`Cozinha PC ${stamp}`);
    await card.getByLabel('Impressora neste computador (opcional)').fill(`tcp://127.0.0.1:${PRINTER_PORT}`);
    await card.getByRole('checkbox', { name: `${profileName} (80 mm)` }).check();
    await card.getByRole('button', { name: 'Gerar código de pareamento' }).click();
    const code = (await page.getByTestId('pairing-code-value').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    // One command to paste on the printer PC: the agent's package on PUBLIC_URL, the code, the printer.
    const command = `npx --yes http://localhost:${PORT}/v1/printing/agent/balcao-print-agent.tgz --pair ${code} --printer tcp://127.0.0.1:${PRINTER_PORT}`;
    await expect(page.getByTestId('install-command')).toHaveText(command);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('pairing-code').getByRole('button', { name: 'Copiar comando' }).click();
    await expect(
      page.getByTestId('pairing-code').getByRole('button', { name: 'Comando copiado' }),
    ).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);

    // On the kitchen's PC the agent swaps the code for its token and connects to the fake printer.
    const pairing = await page.request.post('/v1/printing/agent/pair', { data: { code } });
    expect(pairing.ok(), await pairing.text()).toBe(true);
    const paired = await pairing.json();
    agentId = paired.agentId;
    agent = new PrintAgent({
      config: {
        server: `http://localhost:${PORT}`,
        agentId: paired.agentId,
        name: paired.name,
        token: paired.token,
        socketKey: paired.socketKey,
        printers: { '*': `tcp://127.0.0.1:${PRINTER_PORT}` },
      },
      dir: mkdtempSync(join(tmpdir(), 'e2e-agent-')),
      log: () => {},
    });
    agent.start();
    const agentRow = card.getByTestId('agent').filter({ hasText: `Cozinha PC ${stamp}` });
    await expect(agentRow).toContainText('Conectado');
    await page.screenshot({ path: `${SHOTS}/agents-1280.png`, fullPage: true });

    // The garçom's phone: a tab, the dish, "Enviar para produção". No station tab, no print dialog.
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    const phone = await phoneContext.newPage();
    await phone.addInitScript(() => {
      (window as unknown as { __dialogs: number }).__dialogs = 0;
      window.print = () => {
        (window as unknown as { __dialogs: number }).__dialogs++;
      };
    });
    await loginAs(phone, 5);
    await phone.goto('/dashboard/sale/waiter-pdv');
    await phone.getByRole('button', { name: 'Nova comanda' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Nova comanda' });
    await dialog.getByLabel('Mesa').fill(`A${stamp}`);
    await dialog.getByRole('button', { name: 'Abrir comanda' }).click();
    await expect(phone.getByRole('heading', { name: new RegExp(`Mesa A${stamp}$`) })).toBeVisible();
    await phone.getByLabel('Buscar produto').fill(dish);
    await phone
      .getByRole('list', { name: 'Produtos encontrados' })
      .getByRole('button', { name: new RegExp(dish) })
      .click();
    const draft = phone.getByTestId('add-item-draft');
    await draft.getByRole('button', { name: 'Adicionar' }).click();
    await expect(phone.getByText(`1 x ${dish} adicionado`)).toBeVisible();
    await phone.getByRole('button', { name: 'Enviar para produção (1)' }).click();
    await expect(phone.getByText('Enviado', { exact: true })).toHaveCount(1);

    // The ticket is on the thermal printer: ESC/POS in PC860, bold double height, cut.
    const [bytes] = await printer.waitForJobs(1, 15_000);
    const ticket = decodeEscpos(bytes);
    expect(ticket.codePages).toEqual(['PC860']);
    expect(textOf(ticket)).toContain('COZINHA');
    expect(textOf(ticket).some((l) => l.includes(`1 x ${dish}`))).toBe(true);
    expect(ticket.lines.filter((l) => l.text.trim()).every((l) => l.bold && l.doubleHeight)).toBe(true);
    expect(ticket.cuts).toBe(1);
    expect(printer.jobs).toHaveLength(1);
    expect(await phone.evaluate(() => (window as unknown as { __dialogs: number }).__dialogs)).toBe(0);
    await phoneContext.close();

    // Etiquetas, opened with a stock entry's lines (?items=): two labels straight to the label printer.
    await page.goto(`/dashboard/product-label?items=${dishProduct.id}x2`);
    await expect(page.getByLabel(`Etiquetas de ${dish}`)).toHaveValue('2');
    const labelPrinter = page.getByRole('region', { name: 'Impressora de etiquetas' });
    await expect(labelPrinter.getByLabel('Perfil da impressora')).toContainText(profileName);
    await labelPrinter.getByRole('button', { name: 'Imprimir etiquetas' }).click();
    await expect(labelPrinter.getByText('Etiquetas enviadas para a impressora')).toBeVisible();
    const [, labels] = await printer.waitForJobs(2, 15_000);
    const zpl = labels.toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl).toContain(`^FD${dish}^FS`);
    expect(zpl).toContain('^PQ2');
    await page.screenshot({ path: `${SHOTS}/labels-1280.png`, fullPage: true });
    await page.goto('/dashboard/settings/printer');

    // The printer page at 390 px: the agent's card with its printer ready.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(agentRow.getByTestId('agent-printer-state')).toHaveText('Impressora: Pronta');
    await page.screenshot({ path: `${SHOTS}/agents-390.png`, fullPage: true });
  } finally {
    agent?.stop();
    await printer.close();
    if (agentId !== null) await call(page.request, admin, 'delete', `/printing/agent/${agentId}`);
    const now = await call(page.request, admin, 'get', '/printing/settings');
    await call(page.request, admin, 'put', '/printing/settings', {
      profiles: before.profiles,
      sectors: before.sectors,
      receipt: before.receipt,
      updatedAt: now.updatedAt,
    });
  }
});
