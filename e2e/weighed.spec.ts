import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCheckDigit } from '@balcao/core/barcode';
import { buildScaleLabel } from '@balcao/core/scale/weighedLabel';
import { expect, type Page, test } from '@playwright/test';
import { PrintAgent } from '../apps/print-agent/src/agent.ts';
import { apiLogin, closeRegisterViaApi, demoEmail, loginAs } from './helpers';

/**
 * Issue 36: weighed items. The shop's scale prints EAN-13 labels "2 CCCCC GGGGG D" (5-digit code,
 * weight in grams) and truncates; the caixa scans one at the PDV and the line shows the label's
 * weight and the amount the scale printed, to the cent.
 */

const stamp = Date.now().toString().slice(-4);
const layout = { enabled: true, codeLength: 5, content: 'weight', rounding: 'truncate' } as const;

test.afterAll(async ({ request }) => {
  // Back to the demo shop's defaults: the other specs scan prefix-2 barcodes as ordinary ones.
  const login = await request.post('/v1/login', { data: { email: demoEmail(1), password: 'demo1234' } });
  const headers = { authorization: `Bearer ${(await login.json()).token}` };
  await request.put('/v1/settings/scale', {
    headers,
    data: { enabled: false, codeLength: 5, content: 'price', rounding: 'round' },
  });
});

/** The service worker controls the page and the local catalog finished a sync (its last mark). */
async function offlineReady(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const name = (await indexedDB.databases()).find((d) => d.name?.startsWith('balcao-'))?.name;
          if (!name) return null;
          return new Promise<unknown>((resolve) => {
            const open = indexedDB.open(name);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('meta')) return resolve(null);
              const get = db.transaction('meta').objectStore('meta').get('stock.settings');
              get.onsuccess = () => {
                resolve(get.result?.value ?? null);
                db.close();
              };
              get.onerror = () => resolve(null);
            };
            open.onerror = () => resolve(null);
          });
        }),
      { timeout: 20_000 },
    )
    .not.toBeNull();
}

test('PDV: a scanned weighed label adds its product with the weight and the amount printed on it, offline too', async ({
  page,
}) => {
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const saved = await page.request.put('/v1/settings/scale', { headers, data: layout });
  expect(saved.status(), await saved.text()).toBe(200);
  const scaleCode = `9${stamp}`;
  const product = await page.request.post('/v1/product', {
    headers,
    data: {
      name: `Presunto ${stamp}`,
      productType: 'weighed',
      unit: 'kg',
      salePriceCents: 2990,
      stock: 10,
      scaleCode,
    },
  });
  expect(product.status(), await product.text()).toBe(201);

  await closeRegisterViaApi(page, 4);
  await loginAs(page, 4);
  await page.goto('/dashboard/sale/pdv');
  const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
  await opening.getByLabel('Valor de abertura').fill('50,00');
  await opening.getByRole('button', { name: 'Abrir caixa' }).click();
  await expect(opening).toBeHidden();

  // 0,347 kg x R$ 29,90 = R$ 10,3753: the scale prints R$ 10,37 (half-up would say R$ 10,38).
  const search = page.getByTestId('pdv-search');
  await expect(search).toBeFocused();
  await page.keyboard.type(buildScaleLabel(scaleCode, 347, layout), { delay: 5 });
  await page.keyboard.press('Enter');
  const line = page.getByTestId('pdv-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(`Presunto ${stamp}`);
  await expect(page.getByLabel(`Quantidade de Presunto ${stamp}`)).toHaveValue('0,347');
  await expect(page.getByTestId('pdv-line-total')).toHaveText('R$ 10,37');
  await expect(page.getByTestId('pdv-final-amount')).toHaveText('R$ 10,37');

  // A label whose check digit was misread is refused with the reason; the cart is unchanged.
  const good = buildScaleLabel(scaleCode, 512, layout);
  await page.keyboard.type(`${good.slice(0, 12)}${(Number(good[12]) + 1) % 10}`, { delay: 5 });
  await page.keyboard.press('Enter');
  await expect(
    page.getByText('Etiqueta de balança inválida: o dígito verificador não confere. Leia de novo.'),
  ).toBeVisible();
  await expect(line).toHaveCount(1);

  // Offline, the PDV reloaded without a connection: the label still reads with the shop's layout and
  // its scale's truncation (kept from the last read), from the local catalog.
  await offlineReady(page);
  await page.context().setOffline(true);
  try {
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toContainText('Sem conexão');
    await expect(line).toHaveCount(1);
    // 0,512 kg x R$ 29,90 = R$ 15,3088: the scale prints R$ 15,30.
    await page.getByTestId('pdv-search').focus();
    await page.keyboard.type(good, { delay: 5 });
    await page.keyboard.press('Enter');
    await expect(line).toHaveCount(2);
    await expect(page.getByTestId('pdv-line-total').nth(1)).toHaveText('R$ 15,30');
  } finally {
    await page.context().setOffline(false);
  }
});

test('Etiquetas: choose a product and its quantity, then the A4 sheet PDF', async ({ page }) => {
  const token = await apiLogin(page, demoEmail(1));
  const created = await page.request.post('/v1/product', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: `Etiqueta Caderno ${stamp}`,
      salePriceCents: 1290,
      sku: `ETQ-${stamp}`,
      barcode: withCheckDigit(`7891${stamp}${String(Date.now() % 10_000).padStart(4, '0')}`),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await loginAs(page, 1);
  await page.goto('/dashboard/product-label');
  await expect(page.getByRole('heading', { name: 'Etiquetas', exact: true })).toBeVisible();
  await page.getByLabel('Adicionar produto').fill(`Caderno ${stamp}`);
  await page.getByRole('option', { name: new RegExp(`Etiqueta Caderno ${stamp}`) }).click();
  const copies = page.getByLabel(`Etiquetas de Etiqueta Caderno ${stamp}`);
  // On a phone (390 px) the quantity is on screen, not past the table's right edge.
  await page.setViewportSize({ width: 390, height: 844 });
  const box = await copies.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  await copies.fill('30');
  await expect(page.getByText('30 etiquetas')).toBeVisible();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Gerar PDF (folha A4)' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('etiquetas.pdf');
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(await file.path());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  // 30 labels at 24 a sheet: two pages.
  expect(bytes.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(2);
});

test("PDV: the scale on the print agent's PC, live; an unstable weight is never added", async ({ page }) => {
  test.setTimeout(60_000);
  const token = await apiLogin(page, demoEmail(1));
  const headers = { authorization: `Bearer ${token}` };
  const post = async (url: string, data: unknown) => {
    const res = await page.request.post(url, { headers, data });
    expect(res.ok(), `${url}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  const barcode = withCheckDigit(`789${stamp}${String(Date.now() % 100_000).padStart(5, '0')}`);
  await post('/v1/product', {
    name: `Queijo minas ${stamp}`,
    productType: 'weighed',
    unit: 'kg',
    salePriceCents: 4990,
    stock: 10,
    barcode,
  });
  // The agent prints a profile of its own (no sector, not the receipt's): no other spec's job goes to it.
  const before = await (await page.request.get('/v1/printing/settings', { headers })).json();
  const key = `balanca-${stamp}`;
  const put = await page.request.put('/v1/printing/settings', {
    headers,
    data: {
      ...before,
      profiles: [
        ...before.profiles,
        {
          key,
          name: `Balança ${stamp}`,
          paperWidth: 80,
          columns: 48,
          codePage: 'PC860',
          copies: 1,
          cut: true,
        },
      ],
    },
  });
  expect(put.ok(), await put.text()).toBe(true);
  const profileId = (await put.json()).profiles.find((p: { key: string }) => p.key === key).id;
  const created = await post('/v1/printing/agent', { name: `Caixa ${stamp}`, profileIds: [profileId] });
  const paired = await post('/v1/printing/agent/pair', { code: created.code });

  // The scale: the Toledo emulator on a pseudo-terminal, read by the agent as a serial port.
  const scale = spawn(
    'python3',
    [join(import.meta.dirname, '../apps/api/test/fakes/ptyScale.py'), 'toledo'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const putOnPlate = (plate: string) => scale.stdin?.write(`${plate}\n`);
  const path = await new Promise<string>((done) =>
    scale.stdout?.once('data', (chunk: Buffer) => done(chunk.toString().trim())),
  );
  putOnPlate('unstable');
  const agent = new PrintAgent({
    config: {
      server: `http://localhost:${process.env.E2E_PORT ?? 3100}`,
      agentId: paired.agentId,
      name: paired.name,
      token: paired.token,
      socketKey: paired.socketKey,
      printers: { '*': 'tcp://127.0.0.1:9' },
      scale: { path, protocol: 'toledo' },
    },
    dir: mkdtempSync(join(tmpdir(), 'e2e-agent-scale-')),
    statusEveryMs: 0,
    scaleEveryMs: 100,
    log: () => {},
  });
  try {
    await closeRegisterViaApi(page, 4);
    await loginAs(page, 4);
    await page.goto('/dashboard/sale/pdv');
    const opening = page.getByRole('dialog', { name: 'Abrir caixa' });
    await opening.getByLabel('Valor de abertura').fill('50,00');
    await opening.getByRole('button', { name: 'Abrir caixa' }).click();
    await expect(opening).toBeHidden();
    agent.start();

    const strip = page.getByRole('group', { name: 'Balança' });
    await expect(strip).toContainText(`Balança do agente Caixa ${stamp}`);
    await expect(page.getByTestId('scale-status')).toHaveText('Peso instável: aguarde a balança parar');
    await expect(page.getByTestId('scale-weight')).toHaveText('—');
    // The plate still moving: the product is not added, the caixa is told why.
    const search = page.getByTestId('pdv-search');
    await search.fill(barcode);
    await search.press('Enter');
    await expect(
      page.getByText(`Queijo minas ${stamp}: Peso instável: aguarde a balança parar`),
    ).toBeVisible();
    await expect(page.getByTestId('pdv-line')).toHaveCount(0);

    // It settles at 0,380 kg: the PDV shows it live and the line takes it (0,380 x R$ 49,90 = R$ 18,96, rounded or truncated).
    putOnPlate('380');
    await expect(page.getByTestId('scale-weight')).toHaveText('0,380 kg');
    await expect(page.getByTestId('scale-status')).toHaveText('Peso estável');
    await search.fill(barcode);
    await search.press('Enter');
    await expect(page.getByTestId('pdv-line')).toHaveCount(1);
    await expect(page.getByLabel(`Quantidade de Queijo minas ${stamp}`)).toHaveValue('0,38');
    await expect(page.getByTestId('pdv-line-total')).toHaveText('R$ 18,96');
  } finally {
    agent.stop();
    scale.kill();
    await page.request.delete(`/v1/printing/agent/${paired.agentId}`, { headers });
  }
});
