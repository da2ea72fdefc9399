import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { apiLogin, demoEmail, loginAs } from './helpers';

/** The fake Evolution API the config starts (playwright.config.ts: E2E_PORT + 700). */
const EVOLUTION = `http://127.0.0.1:${Number(process.env.E2E_EVOLUTION_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 700)}`;
const NUMBERS = ['11955550001', '11955550002', '11955550003'];
/** A 1x1 red PNG: the campaign's image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

/**
 * Campaigns send only inside the shop's sending window (08:00-20:00 by default, in its time zone).
 * When the test runs at night in São Paulo, the demo shop moves for the test to a zone where it is
 * midday (restored at the end), so the campaign sends now.
 */
async function daytimeZone(page: Page, token: string): Promise<() => Promise<void>> {
  const hour = Number(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Sao_Paulo',
      hour: '2-digit',
      hourCycle: 'h23',
    }).format(new Date()),
  );
  if (hour >= 8 && hour < 19) return async () => {};
  const headers = { authorization: `Bearer ${token}` };
  const save = async (timeZone: string) => {
    const current = await (await page.request.get('/v1/settings/system', { headers })).json();
    const res = await page.request.put('/v1/settings/system', {
      headers,
      data: { ...current, timeZone },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  const original = (await (await page.request.get('/v1/settings/system', { headers })).json()).timeZone;
  const offset = 12 - new Date().getUTCHours();
  // Etc/GMT zones are named with the sign reversed (Etc/GMT-3 is UTC+3).
  await save(offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`);
  return () => save(original);
}

/** SHOTS=/tmp/dir: screenshots of the screens at 1280 and 390 px, light and dark. */
async function shots(page: Page, name: string) {
  const dir = process.env.SHOTS;
  if (!dir) return;
  const size = page.viewportSize();
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${dir}/${name}-${width}-${scheme}.png`, fullPage: true });
    }
    // The app's own theme switch (the top bar's button).
    await page
      .getByRole('button', { name: scheme === 'light' ? 'Ativar tema escuro' : 'Ativar tema claro' })
      .click();
  }
  if (size) await page.setViewportSize(size);
}

/** No serious or critical accessibility violation on the page as it is. */
async function axe(page: Page, label: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
}

/** Puts the demo shop's time zone back even when the test fails half way. */
let restoreZone: () => Promise<void> = async () => {};
test.afterEach(async () => {
  await restoreZone();
  restoreZone = async () => {};
});

test('connects WhatsApp by QR, sends a campaign to a filtered audience and shows its progress', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAs(page, 1);
  await page.goto('/dashboard/settings/whatsapp');
  await expect(page.getByTestId('whatsapp-state')).toHaveText('Não criada');
  await page.getByRole('button', { name: 'Criar instância' }).click();
  await expect(page.getByRole('img', { name: 'QR code do WhatsApp' })).toBeVisible();
  await expect(page.getByTestId('whatsapp-state')).toHaveText('Conectando');
  await shots(page, 'whatsapp-qr');
  // A pairing code instead: Evolution ignores the number while the first QR round runs, so the API
  // ends that round first; the code comes with the new round's QR.
  await page.getByLabel('Número do WhatsApp (com DDD)').fill('(11) 98765-4321');
  await page.getByRole('button', { name: 'Gerar código de pareamento' }).click();
  await expect(page.getByTestId('pairing-code')).toHaveText(/^[0-9A-F]{8}$/);
  await expect(page.getByTestId('whatsapp-state')).toHaveText('Conectando');
  // What the Evolution server needs is said on the page.
  await expect(page.getByTestId('whatsapp-server-needs')).toContainText(
    'DATABASE_SAVE_DATA_NEW_MESSAGE=true',
  );

  // The phone reads the QR: the fake's webhook reaches the API, the socket updates the page.
  const me = await (
    await page.request.get('/v1/user/me', {
      headers: { authorization: `Bearer ${await apiLogin(page, demoEmail(1))}` },
    })
  ).json();
  const instance = me.whatsappInstance.instanceName as string;
  expect((await page.request.post(`${EVOLUTION}/__fake/scan/${instance}`)).status()).toBe(200);
  await expect(page.getByTestId('whatsapp-state')).toHaveText('Conectado');
  await expect(page.getByText('+5511987654321')).toBeVisible();
  await shots(page, 'whatsapp-open');

  // Three customers born in October tagged "Clube" (no demo customer is): the campaign's audience.
  // A fourth, born in October without the tag, stays out of it.
  const token = await apiLogin(page, demoEmail(1));
  for (const [i, phone] of NUMBERS.entries()) {
    const res = await page.request.post('/v1/customer', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name: `Aniversariante ${i + 1} Outubro`,
        phone,
        birthDate: `1990-10-0${i + 1}`,
        tags: ['Clube'],
      },
    });
    expect(res.status()).toBe(201);
  }
  const untagged = await page.request.post('/v1/customer', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Aniversariante Sem Clube', phone: '11955550009', birthDate: '1990-10-09' },
  });
  expect(untagged.status()).toBe(201);
  restoreZone = await daytimeZone(page, token);

  await page.goto('/dashboard/campaign/new');
  await page.getByLabel('Nome').fill('Aniversariantes de outubro');
  await page.getByLabel('Mensagem').fill('Parabéns, {primeiro_nome}! A {loja} preparou um presente.');
  await expect(page.getByTestId('campaign-preview')).toContainText('Parabéns, Maria!');
  await expect(page.getByTestId('campaign-preview')).toContainText(
    'Para não receber mais mensagens, responda SAIR.',
  );
  await page.getByLabel('Aniversariantes do mês').click();
  await page.getByRole('option', { name: 'Outubro' }).click();
  await expect(page.getByText('4 clientes')).toBeVisible();
  await page.getByLabel('Etiquetas (segmentos)').click();
  await page.getByRole('option', { name: 'Clube (3)' }).click();
  await expect(page.getByText('3 clientes')).toBeVisible();
  // The image: uploaded through the API, previewed in the form.
  await page
    .getByLabel('Arquivo da imagem')
    .setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('img', { name: 'Pré-visualização da imagem' })).toBeVisible();
  await expect(page.getByLabel('Enviar a partir de')).toHaveValue('08:00');
  await expect(page.getByLabel('Enviar até')).toHaveValue('20:00');
  await axe(page, 'campaign form');
  await shots(page, 'campaign-form');
  await page.getByLabel('Intervalo mín. (s)').fill('3');
  await page.getByLabel('Intervalo máx. (s)').fill('3');
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(page).toHaveURL(/\/dashboard\/campaign\/edit\/\d+$/);
  await expect(page.getByText('Campanha criada com sucesso')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Pré-visualização da imagem' })).toHaveAttribute(
    'src',
    /^\/v1\/campaign-image\/\d+\/[0-9a-f]{32}\.jpg$/,
  );

  await page.getByRole('button', { name: 'Enviar agora' }).click();
  await expect(page.getByText('Envio iniciado')).toBeVisible();
  // A number connected today warms up: the page says how many it may send today.
  await expect(page.getByTestId('campaign-warmup')).toContainText('dia 1 de 10');
  const bar = page.getByRole('progressbar', { name: 'Progresso do envio' });
  await expect(bar).toBeVisible();
  // Paced sends (3 s apart): the bar reaches the end live, without a reload.
  await expect(page.getByTestId('campaign-counters')).toContainText('Enviadas: 3', { timeout: 60_000 });
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByText('Concluída', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Destinatários' }).getByText('Enviada', { exact: true }),
  ).toHaveCount(3);

  await shots(page, 'campaign-done');
  await page.goto('/dashboard/campaign');
  await expect(page.getByText('Aniversariantes de outubro')).toBeVisible();
  await shots(page, 'campaign-list');

  const sent = (await (await page.request.get(`${EVOLUTION}/__fake/sent`)).json()) as {
    number: string;
    text: string;
    media?: string;
    mimetype?: string;
  }[];
  expect(sent.map((m) => m.number).sort()).toEqual(NUMBERS.map((n) => `55${n}`));
  expect(sent[0].text).toContain('Para não receber mais mensagens, responda SAIR.');
  // The customer list shows the tags and filters by one; the customer form edits them.
  await page.goto('/dashboard/customer?tag=Clube');
  await expect(page.getByTestId('customer-row')).toHaveCount(3);
  await expect(page.getByTestId('customer-row').first().getByText('Clube')).toBeVisible();
  await axe(page, 'customer list');
  await shots(page, 'customer-list-tags');
  await page.getByRole('link', { name: 'Aniversariante 1 Outubro', exact: true }).click();
  const tagsField = page.getByLabel('Etiquetas (segmentos)');
  await expect(page.getByRole('button', { name: 'Clube' })).toBeVisible();
  await tagsField.fill('VIP');
  await tagsField.press('Enter');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Cliente atualizado com sucesso')).toBeVisible();
  // axe reads colours: wait for the snackbar's grow-in transition to end.
  await expect(page.getByRole('alert').filter({ hasText: 'Cliente atualizado com sucesso' })).toHaveCSS(
    'opacity',
    '1',
  );
  await axe(page, 'customer form');
  await shots(page, 'customer-form-tags');
  const tagged = await (
    await page.request.get(`/v1/customer/tags/client/${me.user.client.id}`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json();
  expect(tagged).toEqual(
    expect.arrayContaining([
      { tag: 'Clube', count: 3 },
      { tag: 'VIP', count: 1 },
    ]),
  );

  // The image went with every message as base64 (a JPEG the API made of the upload).
  for (const m of sent) {
    expect(m.mimetype).toBe('image/jpeg');
    expect(Buffer.from(m.media ?? '', 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  }
});
