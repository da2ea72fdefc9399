import { createVerify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cnpjCheckDigits, type FiscalNote, isValidAccessKey } from '@balcao/core/fiscal';
import { eq, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import yauzl from 'yauzl';
import { type FakeSefaz, startFakeSefaz } from '../../../test/fakes/sefaz.ts';
import { makeA1 } from '../../../test/fakes/sefazCerts.ts';
import { createTestApp, makeCnpj, type TestApp } from '../../../test/helper.ts';
import {
  api,
  asUser,
  expectStatus,
  type Headers,
  makeProduct,
  makeSale,
  openRegister,
} from '../../../test/kit.ts';
import {
  AUTO_VOID_REASON,
  allocateNumber,
  type Draft,
  fiscalFollowUpsSettled,
  numberRanges,
  signedNote,
  sweepFiscal,
  transmit,
  transmitWaiting,
} from './issue.ts';
import { fiscalNotes } from './schema.ts';
import { settingsRow, warnExpiringCertificates } from './service.ts';
import { element, signXml, validateSchema, verifySignature } from './xml.ts';

let t: TestApp;
let sefaz: FakeSefaz;

beforeAll(async () => {
  sefaz = await startFakeSefaz();
  const dir = mkdtempSync(join(tmpdir(), 'sefaz-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, sefaz.caPem);
  t = await createTestApp({ sefaz: { localUrl: sefaz.url, caFile, timeoutMs: 6000 } });
});
afterAll(async () => {
  await t?.close();
  await sefaz?.close();
});

const DEFAULTS = {
  ncm: '21069090',
  cfop: '5102',
  csosn: '102',
  origin: '0',
  cest: null,
  unit: 'UN',
  cClassTrib: '000001',
};
let cnpjSeq = 100;

function settingsBody(cnpj: string, overrides: Record<string, unknown> = {}) {
  return {
    enabled: false,
    environment: 'local',
    cnpj,
    ie: '9044016688',
    legalName: 'Lanchonete Teste Ltda',
    tradeName: 'Lanchonete',
    crt: '1',
    uf: 'PR',
    cityCode: '4106902',
    cityName: 'Curitiba',
    street: 'Rua XV de Novembro',
    streetNumber: '100',
    district: 'Centro',
    zipCode: '80020-310',
    series: 1,
    nextNumber: 1,
    cscId: '000001',
    csc: 'GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G',
    defaults: DEFAULTS,
    ...overrides,
  };
}

/** A shop (Administrador with an open register) issuing NFC-e against the fake SEFAZ. */
async function fiscalShop(
  overrides: Record<string, unknown> = {},
  userTypes = [1],
  client: { clientTypeId?: number } = {},
) {
  const shop = await asUser(t, userTypes, client);
  await openRegister(t, shop.auth);
  const cnpj =
    (overrides.cnpj as string | undefined) ?? makeCnpj(String(Date.now() % 1e9) + String(cnpjSeq++));
  const a1 = makeA1(sefaz.ca, { cnpj, name: 'LANCHONETE TESTE LTDA', password: 'senha-a1' });
  expectStatus(await shop.api.put('/fiscal/settings', settingsBody(cnpj, overrides)), 200, 'settings');
  expectStatus(
    await shop.api.post('/fiscal/certificate', { pfxBase64: a1.pfxBase64, password: 'senha-a1' }),
    200,
    'cert',
  );
  expectStatus(
    await shop.api.put('/fiscal/settings', settingsBody(cnpj, { ...overrides, enabled: true, csc: '' })),
    200,
    'enable',
  );
  const product = await makeProduct(t, shop.auth, { name: 'Coxinha', salePriceCents: 650, stock: 100 });
  return { ...shop, cnpj, a1, product };
}

async function sell(auth: Headers, productId: number, extra: Record<string, unknown> = {}) {
  return makeSale(t, auth, {
    items: [{ productId, quantity: 2 }],
    payments: [{ method: 'money', amountCents: 2000 }],
    cashDepositAmountCents: 2000,
    ...extra,
  });
}

/** The sale's note once it left `pending`. */
async function noteOf(headers: Headers, saleId: number, until = (n: FiscalNote) => n.status !== 'pending') {
  return vi.waitFor(
    async () => {
      const { note } = expectStatus<{ note: FiscalNote | null }>(
        await api(t, headers).get(`/fiscal/sale/${saleId}`),
        200,
      );
      if (!note || !until(note)) throw new Error(`note still ${note?.status}`);
      return note;
    },
    { timeout: 45_000, interval: 100 },
  );
}

// Each note is checked against the XSD (libxml2 in WebAssembly) by the API and the fake: slow on a shared machine.
describe('NFC-e at a PDV sale', { timeout: 90_000 }, () => {
  it('gives one authorised note whose XML validates against the XSD and whose signature verifies', async () => {
    const shop = await fiscalShop();
    const before = sefaz.calls.NFeAutorizacao4 ?? 0;
    const sale = await sell(shop.auth, shop.product.id, { consumerDocument: '529.982.247-25' });
    const note = await noteOf(shop.auth, sale.id);
    expect(note).toMatchObject({
      status: 'authorised',
      number: 1,
      series: 1,
      tpEmis: 1,
      totalCents: 1300,
      consumerDocument: '52998224725',
      statusCode: '100',
      statusText: 'Autorizado o uso da NF-e',
    });
    expect(note.protocol).toMatch(/^\d{15}$/);
    expect(note.accessKey).toMatch(/^41\d{4}\d{14}65001000000001\d{10}$/);
    expect(note.qrCodeUrl).toMatch(new RegExp(`\\?p=${note.accessKey}\\|2\\|2\\|1\\|[0-9A-F]{40}$`));
    expect((sefaz.calls.NFeAutorizacao4 ?? 0) - before).toBe(1);

    const res = await shop.api.get(`/fiscal/notes/${note.id}/xml`);
    expect(res.statusCode).toBe(200);
    const proc = res.body;
    expect(proc).toContain('<nfeProc');
    expect(proc).toContain(`<nProt>${note.protocol}</nProt>`);
    const nfe = element(proc, 'NFe') as string;
    expect(nfe).toContain('<CPF>52998224725</CPF>');
    expect(nfe).toContain('<tPag>01</tPag><vPag>20.00</vPag>');
    expect(nfe).toContain('<vTroco>7.00</vTroco>');
    expect(nfe).toContain('<xProd>NOTA FISCAL EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL</xProd>');
    expect(await validateSchema(nfe, 'nfe_v4.00.xsd')).toBeNull();
    expect(verifySignature(nfe, shop.a1.certPem)).toBe(true);
    expect(verifySignature(nfe.replace('<vNF>13.00</vNF>', '<vNF>1.00</vNF>'), shop.a1.certPem)).toBe(false);

    // The DANFE as a PDF.
    const pdf = await shop.api.get(`/fiscal/notes/${note.id}/danfe`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // A duplicate sent again (a lost answer, a retry) is resolved by query: same protocol, nothing new.
    const row = await settingsRow(t.database.db, shop.client.id);
    const again = await transmit(t.app.ctx, row as NonNullable<typeof row>, nfe, note.accessKey);
    expect(again).toMatchObject({ kind: 'authorised', protocol: note.protocol });
  });

  it('a shop with an alphanumeric CNPJ issues its note: the key carries the letters, its digit counts them, SEFAZ authorises', async () => {
    // 12 characters of the new form (IN RFB 2.229/2024) and their digits, unique per run.
    const base = `AB${String(Date.now() % 1e6).padStart(6, '0')}Z${String(cnpjSeq++ % 1000).padStart(3, '0')}`;
    const cnpj = base + cnpjCheckDigits(base);
    const shop = await fiscalShop({ cnpj });
    expect(expectStatus(await shop.api.get('/fiscal/settings'), 200).settings.cnpj).toBe(cnpj);
    const note = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expect(note).toMatchObject({ status: 'authorised', statusCode: '100' });
    expect(note.accessKey.slice(6, 20)).toBe(cnpj);
    expect(isValidAccessKey(note.accessKey)).toBe(true);
    const nfe = element((await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body, 'NFe') as string;
    expect(nfe).toContain(`Id="NFe${note.accessKey}"`);
    expect(nfe).toContain(`<emit><CNPJ>${cnpj}</CNPJ>`);
    // PL_010's TChNFe and TCnpj take the letters ([0-9]{6}[0-9A-Z]{12}[0-9]{26}, [0-9A-Z]{12}[0-9]{2}).
    expect(await validateSchema(nfe, 'nfe_v4.00.xsd')).toBeNull();
    expect(verifySignature(nfe, shop.a1.certPem)).toBe(true);
    // A key whose digit reads the letters as anything else is refused by SEFAZ (253), not authorised.
    const forged = `${note.accessKey.slice(0, 43)}${(Number(note.accessKey[43]) + 1) % 10}`;
    const supl = element(nfe, 'infNFeSupl') as string;
    const unsigned = nfe
      .replace(/<Signature[\s\S]*<\/Signature>/, '')
      .replace(supl, '')
      .replace(`Id="NFe${note.accessKey}"`, `Id="NFe${forged}"`)
      .replace(/<cDV>\d<\/cDV>/, `<cDV>${forged[43]}</cDV>`);
    const signed = signXml(unsigned, 'infNFe', shop.a1).xml.replace(
      '</infNFe><Signature',
      `</infNFe>${supl}<Signature`,
    );
    expect(await validateSchema(signed, 'nfe_v4.00.xsd')).toBeNull();
    // The cancel event's schema (leiauteEventoCancNFe_v1.00, every PL_010 package) still takes a numeric
    // Id only: the cancel stops at our check with the element named, nothing sent.
    const events = sefaz.calls.NFeRecepcaoEvento4 ?? 0;
    const cancel = await shop.api.post(`/fiscal/notes/${note.id}/cancel`, {
      reason: 'Cliente desistiu da compra',
    });
    expect(cancel.statusCode).toBe(422);
    expect(cancel.json().message).toMatch(
      /^Erro de schema no elemento .+: o cancelamento não foi enviado\.$/,
    );
    expect(sefaz.calls.NFeRecepcaoEvento4 ?? 0).toBe(events);
    const row = await settingsRow(t.database.db, shop.client.id);
    const refused = await transmit(t.app.ctx, row as NonNullable<typeof row>, signed, forged);
    expect(refused).toMatchObject({
      kind: 'rejected',
      statusCode: '253',
      statusText: 'Rejeição: Digito Verificador da chave de acesso composta inválida',
    });
  });

  it('a schema error stops the note with the element named and nothing sent', async () => {
    const shop = await fiscalShop();
    await t.database.db.execute(
      sql`update fiscal_settings set defaults = jsonb_set(defaults, '{ncm}', '"1234"') where client_id = ${shop.client.id}`,
    );
    const before = sefaz.calls.NFeAutorizacao4 ?? 0;
    const sale = await sell(shop.auth, shop.product.id);
    const note = await noteOf(shop.auth, sale.id);
    expect(note.status).toBe('rejected');
    expect(note.statusText).toBe(
      'Erro de schema no elemento NCM: a nota não foi enviada. Confira os dados fiscais do produto (NCM, CFOP, CSOSN) e do emitente.',
    );
    expect(sefaz.calls.NFeAutorizacao4 ?? 0).toBe(before);
  });
});

describe('IBS/CBS of the tax reform (NT 2025.002, PL_010)', { timeout: 90_000 }, () => {
  it('a regime normal note carries IBSCBS per item and the totals, schema-valid, exact to the cent', async () => {
    // CRT 3: the group is required in 2026; "auto" fills it.
    const shop = await fiscalShop({ crt: '3' });
    const meal = await makeProduct(t, shop.auth, { name: 'Prato feito', salePriceCents: 1999, stock: 10 });
    const gift = await makeProduct(t, shop.auth, { name: 'Brinde', salePriceCents: 100, stock: 10 });
    expectStatus(await shop.api.put(`/fiscal/product/${meal.id}`, { fields: { cClassTrib: '200047' } }), 200);
    expectStatus(await shop.api.put(`/fiscal/product/${gift.id}`, { fields: { cClassTrib: '410999' } }), 200);
    const sale = await sell(shop.auth, shop.product.id, {
      items: [
        { productId: shop.product.id, quantity: 2 },
        { productId: meal.id, quantity: 1 },
        { productId: gift.id, quantity: 1 },
      ],
      payments: [{ method: 'money', amountCents: 3399 }],
      cashDepositAmountCents: 3399,
    });
    const note = await noteOf(shop.auth, sale.id);
    expect(note).toMatchObject({ status: 'authorised', statusCode: '100' });
    const nfe = element((await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body, 'NFe') as string;
    expect(await validateSchema(nfe, 'nfe_v4.00.xsd')).toBeNull();
    const items = nfe.match(/<IBSCBS>[\s\S]*?<\/IBSCBS>/g);
    // 2 x 6.50 = 13.00 full rate: IBS UF 0.1% = 0.013 -> 0.01, CBS 0.9% = 0.117 -> 0.12.
    expect(items?.[0]).toBe(
      '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>13.00</vBC><gIBSUF><pIBSUF>0.1000</pIBSUF><vIBSUF>0.01</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.0000</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.01</vIBS><gCBS><pCBS>0.9000</pCBS><vCBS>0.12</vCBS></gCBS></gIBSCBS></IBSCBS>',
    );
    // Bares e restaurantes, 40% less: 19.99 x 0.06% = 0.0120 -> 0.01; 19.99 x 0.54% = 0.1079 -> 0.11.
    expect(items?.[1]).toBe(
      '<IBSCBS><CST>200</CST><cClassTrib>200047</cClassTrib><gIBSCBS><vBC>19.99</vBC><gIBSUF><pIBSUF>0.1000</pIBSUF><gRed><pRedAliq>40.0000</pRedAliq><pAliqEfet>0.0600</pAliqEfet></gRed><vIBSUF>0.01</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.0000</pIBSMun><gRed><pRedAliq>40.0000</pRedAliq><pAliqEfet>0.0000</pAliqEfet></gRed><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.01</vIBS><gCBS><pCBS>0.9000</pCBS><gRed><pRedAliq>40.0000</pRedAliq><pAliqEfet>0.5400</pAliqEfet></gRed><vCBS>0.11</vCBS></gCBS></gIBSCBS></IBSCBS>',
    );
    // CST 410 (not onerous): CST and cClassTrib only.
    expect(items?.[2]).toBe('<IBSCBS><CST>410</CST><cClassTrib>410999</cClassTrib></IBSCBS>');
    // The totals are the sums of the items' rounded amounts.
    expect(element(nfe, 'IBSCBSTot')).toBe(
      '<IBSCBSTot><vBCIBSCBS>32.99</vBCIBSCBS><gIBS><gIBSUF><vDif>0.00</vDif><vDevTrib>0.00</vDevTrib><vIBSUF>0.02</vIBSUF></gIBSUF><gIBSMun><vDif>0.00</vDif><vDevTrib>0.00</vDevTrib><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.02</vIBS><vCredPres>0.00</vCredPres><vCredPresCondSus>0.00</vCredPresCondSus></gIBS><gCBS><vDif>0.00</vDif><vDevTrib>0.00</vDevTrib><vCBS>0.23</vCBS><vCredPres>0.00</vCredPres><vCredPresCondSus>0.00</vCredPresCondSus></gCBS></IBSCBSTot>',
    );
    expect(nfe).toContain('<vNF>33.99</vNF>');
  });

  it('Simples Nacional leaves the group out unless the shop asks for it', async () => {
    const shop = await fiscalShop();
    expect(
      expectStatus<{ settings: { ibsCbsMode: string } }>(await shop.api.get('/fiscal/settings'), 200).settings
        .ibsCbsMode,
    ).toBe('auto');
    const first = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expect((await shop.api.get(`/fiscal/notes/${first.id}/xml`)).body).not.toContain('<IBSCBS>');
    expectStatus(
      await shop.api.put(
        '/fiscal/settings',
        settingsBody(shop.cnpj, { enabled: true, csc: '', nextNumber: 2, ibsCbsMode: 'always' }),
      ),
      200,
    );
    const second = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expect(second.status).toBe('authorised');
    expect((await shop.api.get(`/fiscal/notes/${second.id}/xml`)).body).toContain(
      '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>13.00</vBC>',
    );
  });

  it("a 2027 note takes LC 214/2025's 2027 rates and the CBS rate the shop set (less 0.1 point), exact to the cent; a year without its rate is stopped", async () => {
    const shop = await fiscalShop({ crt: '3' });
    // A rate the law fixes is not entered; the one it leaves to be set is.
    const fixed = await shop.api.put(
      '/fiscal/settings',
      settingsBody(shop.cnpj, { crt: '3', enabled: true, csc: '', ibsCbsRates: { '2027': { ibsUf: 700 } } }),
    );
    expect(fixed.statusCode).toBe(400);
    expect(fixed.json().message).toContain(
      'IBS estadual de 2027 já é fixada pela LC 214/2025 (LC 214/2025, arts. 344 e 347): não se informa.',
    );
    const saved = expectStatus(
      await shop.api.put(
        '/fiscal/settings',
        settingsBody(shop.cnpj, {
          crt: '3',
          enabled: true,
          csc: '',
          ibsCbsRates: { '2027': { cbs: 88_000 } },
        }),
      ),
      200,
    );
    expect(saved.ibsCbsRates).toEqual({ '2027': { cbs: 88_000 } });
    // Saving without the field keeps the rates.
    expectStatus(
      await shop.api.put('/fiscal/settings', settingsBody(shop.cnpj, { crt: '3', enabled: true, csc: '' })),
      200,
    );
    const meal = await makeProduct(t, shop.auth, { name: 'Prato feito', salePriceCents: 1999, stock: 10 });
    expectStatus(await shop.api.put(`/fiscal/product/${meal.id}`, { fields: { cClassTrib: '200047' } }), 200);
    // The 2026 note of this sale, then the same draft issued on a 2027 date.
    const sale = await sell(shop.auth, shop.product.id, {
      items: [
        { productId: shop.product.id, quantity: 2 },
        { productId: meal.id, quantity: 1 },
      ],
      payments: [{ method: 'money', amountCents: 3299 }],
      cashDepositAmountCents: 3299,
    });
    const note = await noteOf(shop.auth, sale.id);
    expect(note.status).toBe('authorised');
    const xml2026 = (await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body;
    expect(xml2026).toContain('<gCBS><pCBS>0.9000</pCBS><vCBS>0.12</vCBS></gCBS>');
    const row = (await settingsRow(t.database.db, shop.client.id)) as NonNullable<
      Awaited<ReturnType<typeof settingsRow>>
    >;
    const [stored] = await t.database.db.select().from(fiscalNotes).where(eq(fiscalNotes.id, note.id));
    const draft = { ...(stored.draft as Draft), number: note.number + 50 };
    const built = await signedNote(t.app.ctx, row, draft, new Date('2027-03-10T15:00:00Z'), 1);
    if ('schema' in built) throw new Error(built.schema.message);
    const nfe = element(built.xml, 'NFe') as string;
    expect(nfe).toContain('<dhEmi>2027-03-10T12:00:00-03:00</dhEmi>');
    expect(await validateSchema(nfe, 'nfe_v4.00.xsd')).toBeNull();
    const items = nfe.match(/<IBSCBS>[\s\S]*?<\/IBSCBS>/g);
    // 13.00 full: IBS UF 0.05% = 0.0065 -> 0.01, Mun 0.05% -> 0.01, CBS 8.8% - 0.1 = 8.7% = 1.131 -> 1.13.
    expect(items?.[0]).toBe(
      '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>13.00</vBC><gIBSUF><pIBSUF>0.0500</pIBSUF><vIBSUF>0.01</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.0500</pIBSMun><vIBSMun>0.01</vIBSMun></gIBSMun><vIBS>0.02</vIBS><gCBS><pCBS>8.7000</pCBS><vCBS>1.13</vCBS></gCBS></gIBSCBS></IBSCBS>',
    );
    // 19.99, 40% less: IBS 0.03% = 0.005997 -> 0.01 each; CBS 5.22% = 1.043478 -> 1.04.
    expect(items?.[1]).toContain(
      '<gCBS><pCBS>8.7000</pCBS><gRed><pRedAliq>40.0000</pRedAliq><pAliqEfet>5.2200</pAliqEfet></gRed><vCBS>1.04</vCBS></gCBS>',
    );
    expect(items?.[1]).toContain(
      '<gIBSUF><pIBSUF>0.0500</pIBSUF><gRed><pRedAliq>40.0000</pRedAliq><pAliqEfet>0.0300</pAliqEfet></gRed><vIBSUF>0.01</vIBSUF></gIBSUF>',
    );
    expect(element(nfe, 'IBSCBSTot')).toContain('<vBCIBSCBS>32.99</vBCIBSCBS>');
    expect(element(nfe, 'IBSCBSTot')).toContain('<vIBS>0.04</vIBS>');
    expect(element(nfe, 'IBSCBSTot')).toContain('<vCBS>2.17</vCBS>');
    // SEFAZ (the fake checks the law's own 2027 rates) authorises it.
    expect(await transmit(t.app.ctx, row, built.xml, built.key)).toMatchObject({ kind: 'authorised' });
    // 2029: every rate is set later and the shop set none: stopped with the Portuguese text, nothing signed.
    const later = await signedNote(t.app.ctx, row, draft, new Date('2029-01-15T15:00:00Z'), 1);
    expect(later).toEqual({
      schema: {
        element: 'pCBS',
        setup: true,
        message:
          'Alíquota de CBS de 2029 não informada: a LC 214/2025 deixa essa alíquota para ser fixada depois. Informe-a em Configurações > Fiscal.',
      },
    });
  });

  it('a wrong cClassTrib is refused in Portuguese, on the forms and by SEFAZ (1023)', async () => {
    const shop = await fiscalShop({ crt: '3' });
    const product = await shop.api.put(`/fiscal/product/${shop.product.id}`, {
      fields: { cClassTrib: '999999' },
    });
    expect(product.statusCode).toBe(400);
    expect(product.json().message).toContain(
      'Classificação tributária (cClassTrib) 999999 não existe na tabela do IBS/CBS para NFC-e.',
    );
    const settings = await shop.api.put(
      '/fiscal/settings',
      settingsBody(shop.cnpj, {
        crt: '3',
        enabled: true,
        csc: '',
        defaults: { ...DEFAULTS, cClassTrib: '12345' },
      }),
    );
    expect(settings.statusCode).toBe(400);
    expect(settings.json().message).toContain('cClassTrib deve ter 6 dígitos');
    // A code that reached the stored defaults some other way: SEFAZ refuses it (rule UB14-10).
    await t.database.db.execute(
      sql`update fiscal_settings set defaults = jsonb_set(defaults, '{cClassTrib}', '"999999"') where client_id = ${shop.client.id}`,
    );
    const note = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expect(note).toMatchObject({ status: 'rejected', statusCode: '1023' });
    expect(note.statusText).toBe(
      'Rejeição: Classificação Tributária do IBS/CBS inexistente. Confira a classificação tributária do IBS/CBS (cClassTrib) do produto ou o padrão da loja em Configurações > Fiscal.',
    );
  });
});

describe('contingency', { timeout: 90_000 }, () => {
  it('SEFAZ silent: the PR note goes out in contingency (tpEmis 9), then is sent once when SEFAZ returns', async () => {
    const shop = await fiscalShop();
    sefaz.mode = 'timeout';
    try {
      const sale = await sell(shop.auth, shop.product.id, { consumerDocument: '529.982.247-25' });
      const note = await noteOf(shop.auth, sale.id);
      expect(note).toMatchObject({ status: 'contingency', tpEmis: 9, statusText: 'EMITIDA EM CONTINGÊNCIA' });
      expect(note.accessKey[34]).toBe('9');
      expect(note.transmitBy).not.toBeNull();
      expect(note.qrCodeUrl).toMatch(/\|2\|2\|\d{2}\|13\.00\|[0-9a-f]+\|1\|[0-9A-F]{40}$/);
      const pdf = await shop.api.get(`/fiscal/notes/${note.id}/danfe`);
      expect(pdf.statusCode).toBe(200);
    } finally {
      sefaz.mode = 'ok';
    }
    const sent = sefaz.calls.NFeAutorizacao4 ?? 0;
    await transmitWaiting(t.app.ctx);
    const { notes } = expectStatus<{ notes: FiscalNote[] }>(await shop.api.get('/fiscal/notes'), 200);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      status: 'authorised',
      tpEmis: 9,
      number: 1,
      consumerDocument: '52998224725',
    });
    // The CPF typed at the PDV is in the note transmitted later.
    expect((await shop.api.get(`/fiscal/notes/${notes[0].id}/xml`)).body).toContain(
      '<dest><CPF>52998224725</CPF>',
    );
    expect((sefaz.calls.NFeAutorizacao4 ?? 0) - sent).toBe(1);
    await transmitWaiting(t.app.ctx);
    expect((sefaz.calls.NFeAutorizacao4 ?? 0) - sent).toBe(1);
  });

  it('QR code v3 (no CSC): online chave|3|tpAmb; in contingency signed with the A1, valid and sent once', async () => {
    const shop = await fiscalShop({ qrCodeVersion: 3, csc: '', cscId: '' });
    expect(expectStatus(await shop.api.get('/fiscal/settings'), 200).settings).toMatchObject({
      qrCodeVersion: 3,
      hasCsc: false,
    });
    const online = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expect(online.status).toBe('authorised');
    expect(online.qrCodeUrl).toMatch(new RegExp(`\\?p=${online.accessKey}\\|3\\|2$`));
    sefaz.mode = 'timeout';
    let note: FiscalNote;
    try {
      const sale = await sell(shop.auth, shop.product.id, { consumerDocument: '529.982.247-25' });
      note = await noteOf(shop.auth, sale.id);
    } finally {
      sefaz.mode = 'ok';
    }
    expect(note).toMatchObject({ status: 'contingency', tpEmis: 9 });
    const xml = (await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body;
    const day = /<dhEmi>\d{4}-\d{2}-(\d{2})T/.exec(xml)?.[1];
    const text = `${note.accessKey}|3|2|${day}|13.00|2|52998224725`;
    const url = note.qrCodeUrl ?? '';
    expect(url).toContain(`?p=${text}|`);
    const signature = url.slice(url.indexOf(`${text}|`) + text.length + 1);
    expect(createVerify('RSA-SHA1').update(text).verify(shop.a1.certPem, signature, 'base64')).toBe(true);
    // The XML carries the same QR code, and SEFAZ takes the note once it answers.
    expect(xml).toContain(url);
    await transmitWaiting(t.app.ctx);
    expect(await noteOf(shop.auth, note.saleId ?? 0, (n) => n.status === 'authorised')).toMatchObject({
      tpEmis: 9,
    });
  });

  it('a backlog larger than one page is sent in one run of the job, each note once', async () => {
    const shop = await fiscalShop();
    await sefaz.goAway();
    const notes: FiscalNote[] = [];
    try {
      for (let i = 0; i < 7; i++)
        notes.push(await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id));
    } finally {
      await sefaz.comeBack();
    }
    expect(notes.map((n) => n.status)).toEqual(Array(7).fill('contingency'));
    // Pages of 3: the old job sent one page per run (50 every 30 s: a 2,000-note backlog took 20 minutes).
    await transmitWaiting(t.app.ctx, 3);
    for (const n of notes)
      expect(await noteOf(shop.auth, n.saleId ?? 0)).toMatchObject({ status: 'authorised', tpEmis: 9 });
    expect([...sefaz.notes.values()].filter((n) => n.cnpj === shop.cnpj)).toHaveLength(7);
  });

  it('QR code v3 needs neither the CSC nor its id; v2 still asks for both', async () => {
    const shop = await asUser(t, [1]);
    const cnpj = makeCnpj('661234560001');
    const v3 = expectStatus(
      await shop.api.put('/fiscal/settings', settingsBody(cnpj, { qrCodeVersion: 3, cscId: '', csc: '' })),
      200,
      'v3 without CSC',
    );
    expect(v3).toMatchObject({ qrCodeVersion: 3, cscId: '', hasCsc: false });
    const noId = await shop.api.put('/fiscal/settings', settingsBody(cnpj, { qrCodeVersion: 2, cscId: '' }));
    expect(noId.statusCode).toBe(400);
    expect(JSON.stringify(noId.json())).toContain(
      'Informe o identificador do CSC (o QR Code versão 2 usa o CSC)',
    );
    const noCsc = await shop.api.put('/fiscal/settings', settingsBody(cnpj, { qrCodeVersion: 2, csc: '' }));
    expect(noCsc.statusCode).toBe(422);
    expect(noCsc.json().message).toBe('CSC deve ter de 16 a 36 caracteres');
  });

  it('SP allows no offline contingency: the note waits in the queue with the warning, then is sent', async () => {
    const shop = await fiscalShop({ uf: 'SP', cityCode: '3550308', cityName: 'São Paulo' });
    const epecCalls = sefaz.calls.RecepcaoEPEC ?? 0;
    sefaz.mode = 'error5xx';
    let note: FiscalNote;
    try {
      const sale = await sell(shop.auth, shop.product.id);
      note = await noteOf(shop.auth, sale.id);
      expect(note).toMatchObject({
        status: 'queued',
        tpEmis: 1,
        statusText:
          'SEFAZ-SP não respondeu. São Paulo não aceita NFC-e em contingência off-line: a nota ficou na fila e será enviada quando a conexão voltar.',
      });
    } finally {
      sefaz.mode = 'ok';
    }
    // The shop's own failure (no answer) is not SEFAZ declared down: no EPEC.
    expect(sefaz.calls.RecepcaoEPEC ?? 0).toBe(epecCalls);
    await transmitWaiting(t.app.ctx);
    const { notes } = expectStatus<{ notes: FiscalNote[] }>(await shop.api.get('/fiscal/notes'), 200);
    expect(notes[0]).toMatchObject({ id: note.id, status: 'authorised', tpEmis: 1 });
    expect(notes[0].accessKey.slice(0, 2)).toBe('35');
  });
});

describe('EPEC in São Paulo, only when SEFAZ itself is declared down', { timeout: 120_000 }, () => {
  it('SEFAZ-SP answers 108: EPEC registered (tpEmis 4), DANFE printed with the EPEC text, then the note is sent once when SEFAZ is back', async () => {
    const shop = await fiscalShop({ uf: 'SP', cityCode: '3550308', cityName: 'São Paulo' });
    expectStatus(
      await shop.api.put('/printing/settings', {
        profiles: [
          {
            key: 'caixa',
            name: 'Caixa',
            paperWidth: 80,
            columns: 48,
            codePage: 'PC860',
            copies: 1,
            cut: true,
          },
        ],
        sectors: [],
        receipt: { autoPrint: true, profileKey: 'caixa' },
      }),
      200,
    );
    const before = { epec: sefaz.calls.RecepcaoEPEC ?? 0, auth: sefaz.calls.NFeAutorizacao4 ?? 0 };
    sefaz.declaredDown = '108';
    let note: FiscalNote;
    try {
      const sale = await sell(shop.auth, shop.product.id, { consumerDocument: '529.982.247-25' });
      note = await noteOf(shop.auth, sale.id);
      expect(note).toMatchObject({
        status: 'epec',
        tpEmis: 4,
        statusText:
          'SEFAZ-SP declarou paralisação: a NFC-e saiu em contingência EPEC (evento registrado) e será transmitida quando a SEFAZ voltar.',
      });
      expect(note.accessKey.slice(0, 2)).toBe('35');
      expect(note.accessKey[34]).toBe('4');
      expect(note.transmitBy).not.toBeNull();
      expect(sefaz.epecs.get(note.accessKey)).toMatch(/^\d{15}$/);
      expect((sefaz.calls.RecepcaoEPEC ?? 0) - before.epec).toBe(1);
      const xml = (await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body;
      expect(xml).toContain('<tpEmis>4</tpEmis>');
      expect(xml).toContain('<xJust>SEFAZ-SP em paralisacao declarada: emissao em contingencia EPEC</xJust>');
      expect(await validateSchema(element(xml, 'NFe') as string, 'nfe_v4.00.xsd')).toBeNull();
      const job = await vi.waitFor(async () => {
        const found = expectStatus<{ payload: { title: string; lines: string[] } }[]>(
          await shop.api.get('/printing/jobs'),
          200,
        ).find((j) => j.payload.title === `NFC-e nº ${note.number}`);
        if (!found) throw new Error('no DANFE job yet');
        return found;
      });
      const text = job.payload.lines.join('\n');
      expect(text).toContain('EMITIDA EM CONTINGÊNCIA - EPEC');
      expect(text).toContain(`EPEC registrado: protocolo ${sefaz.epecs.get(note.accessKey)}`);
      // Still down: the job leaves it waiting.
      await transmitWaiting(t.app.ctx);
      expect(
        expectStatus<{ note: FiscalNote }>(await shop.api.get(`/fiscal/sale/${sale.id}`), 200).note.status,
      ).toBe('epec');
    } finally {
      sefaz.declaredDown = null;
    }
    await transmitWaiting(t.app.ctx);
    await transmitWaiting(t.app.ctx);
    const { notes } = expectStatus<{ notes: FiscalNote[] }>(await shop.api.get('/fiscal/notes'), 200);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      id: note.id,
      status: 'authorised',
      tpEmis: 4,
      accessKey: note.accessKey,
      statusCode: '100',
    });
    expect(sefaz.notes.get(note.accessKey)).toBeDefined();
    // One EPEC, and the note authorised once (the calls while down were answered 108).
    expect((sefaz.calls.RecepcaoEPEC ?? 0) - before.epec).toBe(1);
  });

  it("the EPEC service's own status is asked before an EPEC: not in operation, the note waits in the queue and no EPEC is sent; the fiscal page shows it", async () => {
    const shop = await fiscalShop({ uf: 'SP', cityCode: '3550308', cityName: 'São Paulo' });
    const before = { epec: sefaz.calls.RecepcaoEPEC ?? 0, status: sefaz.calls.EPECStatusServico ?? 0 };
    const page = expectStatus(await shop.api.get('/fiscal/epec-status'), 200);
    expect(page).toMatchObject({
      applies: true,
      available: true,
      statusCode: '107',
      statusText: 'Serviço em Operação',
    });
    expect(page.checkedAt).not.toBeNull();
    const notify = vi.spyOn(t.app.ctx, 'notify');
    sefaz.declaredDown = '108';
    sefaz.epecStatus = ['108', 'Serviço Paralisado Momentaneamente (curto prazo)'];
    try {
      expect(expectStatus(await shop.api.get('/fiscal/epec-status'), 200)).toMatchObject({
        available: false,
        statusCode: '108',
      });
      const sale = await sell(shop.auth, shop.product.id);
      const note = await noteOf(shop.auth, sale.id);
      const queued = `SEFAZ-SP declarou paralisação, mas o serviço EPEC não está ativo (108 Serviço Paralisado Momentaneamente (curto prazo)): a NFC-e nº ${note.number} ficou na fila e será enviada quando a SEFAZ voltar.`;
      expect(note).toMatchObject({ status: 'queued', tpEmis: 1, statusText: queued });
      expect((sefaz.calls.RecepcaoEPEC ?? 0) - before.epec).toBe(0);
      expect((sefaz.calls.EPECStatusServico ?? 0) - before.status).toBe(3);
      expect(notify).toHaveBeenCalledWith(shop.client.id, { message: queued, alertColor: 'warning' });
    } finally {
      sefaz.declaredDown = null;
      sefaz.epecStatus = ['107', 'Serviço em Operação'];
      notify.mockRestore();
    }
    // Another state has no EPEC for NFC-e: nothing asked.
    const pr = await fiscalShop();
    expect(expectStatus(await pr.api.get('/fiscal/epec-status'), 200)).toEqual({
      applies: false,
      available: null,
      statusCode: null,
      statusText: 'A contingência EPEC de NFC-e existe só em São Paulo.',
      checkedAt: null,
    });
    // The Administrador's page only.
    const seller = await asUser(t, [3]);
    expect((await seller.api.get('/fiscal/epec-status')).statusCode).toBe(403);
  });

  it('SEFAZ refuses a tpEmis 4 note without its EPEC (468)', async () => {
    const shop = await fiscalShop({ uf: 'SP', cityCode: '3550308', cityName: 'São Paulo' });
    const note = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    const row = (await settingsRow(t.database.db, shop.client.id)) as NonNullable<
      Awaited<ReturnType<typeof settingsRow>>
    >;
    const [stored] = await t.database.db.select().from(fiscalNotes).where(eq(fiscalNotes.id, note.id));
    const draft = { ...(stored.draft as Draft), number: note.number + 100 };
    const built = await signedNote(t.app.ctx, row, draft, new Date(), 4);
    if ('schema' in built) throw new Error(built.schema.message);
    expect(await transmit(t.app.ctx, row, built.xml, built.key)).toEqual({
      kind: 'rejected',
      statusCode: '468',
      statusText: 'Rejeição: NF-e com Tipo Emissão = 4, sem EPEC correspondente',
    });
  });
});

describe('SP queue and a lost answer', { timeout: 90_000 }, () => {
  it('a queued note SEFAZ authorised (its answer lost) keeps the document SEFAZ holds, not one signed again', async () => {
    const shop = await fiscalShop({ uf: 'SP', cityCode: '3550308', cityName: 'São Paulo' });
    sefaz.chaos = { timeout: 0, error5xx: 0, lostAnswer: 1 };
    let note: FiscalNote;
    try {
      note = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    } finally {
      sefaz.chaos = null;
    }
    expect(note.status).toBe('queued');
    const held = sefaz.notes.get(note.accessKey);
    expect(held).toBeDefined();
    // A later second: a note signed again would carry another dhEmi, so another digest.
    // (A second can take longer than waitFor's default 1 s to turn on a loaded CI machine.)
    const second = new Date().getSeconds();
    await vi.waitFor(() => expect(new Date().getSeconds()).not.toBe(second), {
      interval: 50,
      timeout: 5_000,
    });
    await transmitWaiting(t.app.ctx);
    const sent = await noteOf(shop.auth, note.saleId ?? 0, (n) => n.status === 'authorised');
    expect(sent).toMatchObject({ accessKey: note.accessKey, protocol: held?.protocol });
    const proc = (await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body;
    expect(/<DigestValue>([^<]+)<\/DigestValue>/.exec(proc)?.[1]).toBe(held?.digest);
    expect(proc).toContain(`<digVal>${held?.digest}</digVal>`);
  });
});

describe('cancel and voiding', { timeout: 90_000 }, () => {
  it('cancels an authorised note (110111) with a reason of 15+ characters', async () => {
    const shop = await fiscalShop();
    const sale = await sell(shop.auth, shop.product.id);
    const note = await noteOf(shop.auth, sale.id);
    const short = await shop.api.post(`/fiscal/notes/${note.id}/cancel`, { reason: 'errado' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('A justificativa precisa ter pelo menos 15 caracteres.');
    const canceled = expectStatus<FiscalNote>(
      await shop.api.post(`/fiscal/notes/${note.id}/cancel`, { reason: 'Cliente desistiu da compra' }),
      200,
    );
    expect(canceled).toMatchObject({
      status: 'canceled',
      statusCode: '135',
      statusText: 'Evento registrado e vinculado a NF-e',
    });
    expect(sefaz.notes.get(note.accessKey)?.canceled).toBe(true);
  });

  it("canceling the sale cancels its authorised note (110111) with the sale's reason", async () => {
    const shop = await fiscalShop();
    const sale = await sell(shop.auth, shop.product.id);
    const note = await noteOf(shop.auth, sale.id);
    expectStatus(await shop.api.post(`/sale/${sale.id}/cancel`, { reason: 'Desistiu' }), 200);
    const canceled = await noteOf(shop.auth, sale.id, (n) => n.status === 'canceled');
    expect(canceled).toMatchObject({ id: note.id, statusCode: '135' });
    expect(sefaz.notes.get(note.accessKey)?.canceled).toBe(true);
  });

  it('voids a range of unused numbers; a used number is refused', async () => {
    const shop = await fiscalShop();
    const sale = await sell(shop.auth, shop.product.id);
    await noteOf(shop.auth, sale.id);
    const used = await shop.api.post('/fiscal/void', {
      series: 1,
      from: 1,
      to: 2,
      reason: 'Numeracao pulada por falha',
    });
    expect(used.statusCode).toBe(422);
    expect(used.json().message).toBe(
      'Há números da faixa em notas emitidas ou em envio: só números não usados podem ser inutilizados.',
    );
    const voided = expectStatus(
      await shop.api.post('/fiscal/void', {
        series: 1,
        from: 5,
        to: 7,
        reason: 'Numeracao pulada por falha',
      }),
      200,
    );
    expect(voided).toMatchObject({ statusCode: '102', statusText: 'Inutilização de número homologado' });
  });
});

describe('certificate', { timeout: 90_000 }, () => {
  it('a wrong password, another CNPJ or an expired certificate are clear errors', async () => {
    const shop = await asUser(t, [1]);
    const cnpj = makeCnpj('771234560001');
    expectStatus(await shop.api.put('/fiscal/settings', settingsBody(cnpj)), 200);
    const good = makeA1(sefaz.ca, { cnpj, name: 'LOJA', password: 'certa' });
    const wrong = await shop.api.post('/fiscal/certificate', {
      pfxBase64: good.pfxBase64,
      password: 'errada',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe('Senha do certificado incorreta ou arquivo .pfx inválido.');

    const otherCnpj = makeCnpj('881234560001');
    const other = makeA1(sefaz.ca, { cnpj: otherCnpj, name: 'OUTRA', password: 'x' });
    const res = await shop.api.post('/fiscal/certificate', { pfxBase64: other.pfxBase64, password: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      `O certificado é do CNPJ ${otherCnpj}, mas o emitente é ${cnpj}: envie o certificado da loja.`,
    );

    const expired = makeA1(sefaz.ca, {
      cnpj,
      name: 'LOJA',
      password: 'x',
      validDays: { from: -400, to: -35 },
    });
    const old = await shop.api.post('/fiscal/certificate', { pfxBase64: expired.pfxBase64, password: 'x' });
    expect(old.statusCode).toBe(422);
    expect(old.json().message).toMatch(
      /^O certificado venceu em \d{2}\/\d{2}\/\d{4}: envie um certificado válido\.$/,
    );

    const enable = await shop.api.put('/fiscal/settings', settingsBody(cnpj, { enabled: true }));
    expect(enable.statusCode).toBe(422);
    expect(enable.json().message).toBe('Envie o certificado A1 (.pfx) antes de ligar a emissão de NFC-e.');

    const saved = expectStatus(
      await shop.api.post('/fiscal/certificate', { pfxBase64: good.pfxBase64, password: 'certa' }),
      200,
    );
    expect(saved.certificate).toMatchObject({ holder: `LOJA:${cnpj}`, cnpj });
    // The password and the file are kept sealed, never in clear.
    const [row] = (
      (await t.database.db.execute(
        sql`select certificate_sealed as s, csc_sealed as c from fiscal_settings where client_id = ${shop.client.id}`,
      )) as unknown as { rows: { s: string; c: string }[] }
    ).rows;
    expect(row.s).toMatch(/^v1\./);
    expect(row.s).not.toContain('certa');
    expect(row.c).not.toContain('GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G');
  });
});

function unzip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const out = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

describe('the DANFE print job', { timeout: 90_000 }, () => {
  it('carries the QR code for the print agent to print as a native ESC/POS QR, once per note', async () => {
    const shop = await fiscalShop();
    expectStatus(
      await shop.api.put('/printing/settings', {
        profiles: [
          {
            key: 'caixa',
            name: 'Caixa',
            paperWidth: 80,
            columns: 48,
            codePage: 'PC860',
            copies: 1,
            cut: true,
          },
        ],
        sectors: [],
        receipt: { autoPrint: true, profileKey: 'caixa' },
      }),
      200,
      'printing settings',
    );
    const note = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    const jobs = await vi.waitFor(async () => {
      const all = expectStatus<{ payload: { title: string; qr?: string; lines: string[] } }[]>(
        await shop.api.get('/printing/jobs'),
        200,
      ).filter((j) => j.payload.title === `NFC-e nº ${note.number}`);
      if (all.length === 0) throw new Error('no DANFE job yet');
      return all;
    });
    expect(jobs).toHaveLength(1);
    expect(jobs[0].payload.qr).toBe(note.qrCodeUrl);
    expect(jobs[0].payload.lines.join('\n')).toContain('Consulte pela Chave de Acesso em');
  });
});

describe("the accountant's monthly ZIP", { timeout: 90_000 }, () => {
  it('holds the authorised and canceled notes, the cancel event, the inutilização and resumo.csv', async () => {
    const shop = await fiscalShop();
    const first = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    const second = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expectStatus(
      await shop.api.post(`/fiscal/notes/${second.id}/cancel`, { reason: 'Cliente desistiu da compra' }),
      200,
    );
    expectStatus(
      await shop.api.post('/fiscal/void', {
        series: 1,
        from: 5,
        to: 6,
        reason: 'Numeracao pulada por falha',
      }),
      200,
    );
    const month = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Sao_Paulo',
      year: 'numeric',
      month: '2-digit',
    })
      .format(new Date())
      .slice(0, 7);
    const bad = await shop.api.get('/fiscal/month-zip?month=2026-13');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Informe o mês como AAAA-MM');
    const res = await shop.api.get(`/fiscal/month-zip?month=${month}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="nfce-${month}.zip"`);
    const files = await unzip(res.rawPayload);
    expect([...files.keys()].sort()).toEqual(
      [
        `NFCe/${first.accessKey}-nfce.xml`,
        `NFCe/${second.accessKey}-nfce.xml`,
        `eventos/${second.accessKey}-cancelamento.xml`,
        'inutilizacoes/1-5-6.xml',
        'resumo.csv',
      ].sort(),
    );
    expect(files.get(`NFCe/${first.accessKey}-nfce.xml`)).toContain(`<nProt>${first.protocol}</nProt>`);
    expect(files.get(`eventos/${second.accessKey}-cancelamento.xml`)).toContain(
      '<tpEvento>110111</tpEvento>',
    );
    expect(files.get('inutilizacoes/1-5-6.xml')).toContain('<cStat>102</cStat>');
    const csv = (files.get('resumo.csv') as string)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe(
      'tipo;serie;numero;chave;emissao;situacao;contingencia;valor;protocolo;protocolo_cancelamento',
    );
    expect(csv[1]).toMatch(
      new RegExp(
        `^NFC-e;1;1;${first.accessKey};\\d{2}/\\d{2}/\\d{4}.*;Autorizada;nao;13,00;${first.protocol};$`,
      ),
    );
    expect(csv[2]).toMatch(
      new RegExp(`^NFC-e;1;2;${second.accessKey};.*;Cancelada;nao;13,00;${second.protocol};\\d{15}$`),
    );
    expect(csv[3]).toMatch(/^Inutilização;1;5-6;;.*;Inutilizada;;;\d{15};$/);
    // Another shop's month is its own: empty but for the summary's header.
    const other = await asUser(t, [1]);
    const theirs = await unzip((await other.api.get(`/fiscal/month-zip?month=${month}`)).rawPayload);
    expect([...theirs.keys()]).toEqual(['resumo.csv']);
  });

  it('is streamed page by page and complete: a month of more notes than a page, each XML its own', async () => {
    const shop = await fiscalShop();
    const first = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    // 449 more authorised notes of the month (copies of the first, each with its own number, key and XML).
    await t.database.db.execute(sql`insert into fiscal_notes (client_id, model, series, number, access_key,
        tp_emis, environment, status, total_cents, xml, proc_xml, protocol, draft)
      select client_id, model, series, g.n, 'K' || client_id || '-' || g.n, tp_emis, environment, status,
        total_cents, xml, '<nfeProc><nNF>' || g.n || '</nNF>' || repeat('x', 3000) || '</nfeProc>',
        protocol, draft
      from fiscal_notes, generate_series(2, 450) as g(n) where id = ${first.id}`);
    const month = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Sao_Paulo',
      year: 'numeric',
      month: '2-digit',
    })
      .format(new Date())
      .slice(0, 7);
    const res = await shop.api.get(`/fiscal/month-zip?month=${month}`);
    expect(res.statusCode).toBe(200);
    const files = await unzip(res.rawPayload);
    expect(files.size).toBe(451);
    expect(files.get(`NFCe/${first.accessKey}-nfce.xml`)).toContain(`<nProt>${first.protocol}</nProt>`);
    for (let n = 2; n <= 450; n++)
      expect(files.get(`NFCe/K${shop.client.id}-${n}-nfce.xml`)).toContain(`<nNF>${n}</nNF>`);
    const csv = (files.get('resumo.csv') as string).trim().split('\r\n');
    expect(csv).toHaveLength(451);
    expect(csv[450]).toMatch(
      new RegExp(`^NFC-e;1;450;K${shop.client.id}-450;.*;Autorizada;nao;13,00;\\d{15};$`),
    );
  });
});

describe('certificate bell', { timeout: 90_000 }, () => {
  it('rings once a day from 30 days before the A1 ends, and not for a certificate far from its end', async () => {
    const far = await fiscalShop();
    const shop = await asUser(t, [1]);
    const cnpj = makeCnpj(`66${String(Date.now() % 1e8)}01`);
    expectStatus(await shop.api.put('/fiscal/settings', settingsBody(cnpj)), 200);
    const a1 = makeA1(sefaz.ca, { cnpj, name: 'LOJA', password: 'x', validDays: { from: -300, to: 20 } });
    expectStatus(await shop.api.post('/fiscal/certificate', { pfxBase64: a1.pfxBase64, password: 'x' }), 200);
    const notify = vi.spyOn(t.app.ctx, 'notify');
    try {
      await warnExpiringCertificates(t.app.ctx);
      const mine = () => notify.mock.calls.filter(([clientId]) => clientId === shop.client.id);
      expect(mine()).toHaveLength(1);
      expect(mine()[0][1]).toMatchObject({ alertColor: 'warning' });
      expect(mine()[0][1].message).toMatch(
        /^O certificado A1 da NFC-e vence em 20 dias \(\d{2}\/\d{2}\/\d{4}\): envie o novo em Configurações > Fiscal\.$/,
      );
      expect(notify.mock.calls.some(([clientId]) => clientId === far.client.id)).toBe(false);
      // Again the same day: nothing; the next day: again, one day less.
      await warnExpiringCertificates(t.app.ctx);
      expect(mine()).toHaveLength(1);
      await warnExpiringCertificates(t.app.ctx, new Date(Date.now() + 86_400_000));
      expect(mine()).toHaveLength(2);
      expect(mine()[1][1].message).toContain('vence em 19 dias');
    } finally {
      notify.mockRestore();
    }
  });
});

describe('numbers', { timeout: 90_000 }, () => {
  it('are allocated in the database: 20 concurrent takes give 20 different, consecutive numbers', async () => {
    const shop = await asUser(t, [1]);
    const db = t.database.db;
    const numbers = await Promise.all(
      Array.from({ length: 20 }, () => db.transaction((tx) => allocateNumber(tx, shop.client.id, 7))),
    );
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe('tenancy and roles', { timeout: 90_000 }, () => {
  it("another shop sees none of a shop's notes; only the Administrador sets up", async () => {
    const shop = await fiscalShop({}, [1, 3]);
    const sale = await sell(shop.auth, shop.product.id);
    const note = await noteOf(shop.auth, sale.id);
    const other = await asUser(t, [1]);
    expect((await other.api.get(`/fiscal/notes/${note.id}/xml`)).statusCode).toBe(404);
    expect((await other.api.get(`/fiscal/notes/${note.id}/danfe`)).statusCode).toBe(404);
    expect(
      (await other.api.post(`/fiscal/notes/${note.id}/cancel`, { reason: 'Cliente desistiu da compra' }))
        .statusCode,
    ).toBe(404);
    expect(expectStatus(await other.api.get(`/fiscal/sale/${sale.id}`), 200)).toEqual({ note: null });
    expect(expectStatus(await other.api.get('/fiscal/notes'), 200)).toEqual({ notes: [] });
    expect(expectStatus(await other.api.get('/fiscal/settings'), 200)).toEqual({ settings: null });
    expect((await other.api.get(`/fiscal/product/${shop.product.id}`)).statusCode).toBe(404);

    const seller = shop.apis[1];
    for (const res of [
      await seller.get('/fiscal/settings'),
      await seller.put('/fiscal/settings', settingsBody(shop.cnpj)),
      await seller.post('/fiscal/certificate', { pfxBase64: 'x', password: 'y' }),
      await seller.get('/fiscal/notes'),
      await seller.post('/fiscal/void', { series: 1, from: 5, to: 6, reason: 'Numeracao pulada por falha' }),
      await seller.get(`/fiscal/product/${shop.product.id}`),
      await seller.put(`/fiscal/product/${shop.product.id}`, { fields: null }),
    ])
      expect(res.statusCode).toBe(403);
  });

  it('the PDV reads whether the shop issues NFC-e ("CPF na nota?" only then)', async () => {
    const shop = await asUser(t, [1, 4]);
    const cashier = shop.apis[1];
    expect(expectStatus(await cashier.get('/fiscal/status'), 200)).toEqual({ enabled: false });
    const on = await fiscalShop({}, [1, 4]);
    expect(expectStatus(await on.apis[1].get('/fiscal/status'), 200)).toEqual({ enabled: true });
  });

  it("a product's own fiscal fields win over the shop's defaults", async () => {
    const shop = await fiscalShop();
    const own = { ...DEFAULTS, ncm: '19059090', cest: '1702300' };
    const saved = expectStatus(
      await shop.api.put(`/fiscal/product/${shop.product.id}`, { fields: own }),
      200,
    );
    expect(saved).toEqual({ fields: own, defaults: DEFAULTS });
    const bad = await shop.api.put(`/fiscal/product/${shop.product.id}`, { fields: { ...own, ncm: '123' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('NCM deve ter 8 dígitos');
    const sale = await sell(shop.auth, shop.product.id);
    const note = await noteOf(shop.auth, sale.id);
    const xml = (await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body;
    expect(xml).toContain('<NCM>19059090</NCM><CEST>1702300</CEST><CFOP>5102</CFOP>');
  });
});

describe('nothing lost: the sweep', { timeout: 120_000 }, () => {
  const notesOf = async (headers: Headers) =>
    expectStatus<{ notes: FiscalNote[] }>(await api(t, headers).get('/fiscal/notes'), 200).notes;

  it('a finished sale left without its note (crash between the commit and the insert) gets it once', async () => {
    const shop = await fiscalShop();
    const db = t.database.db;
    // The follow-up never ran for this sale: issuing is off for the moment of the sale only.
    await db.execute(sql`update fiscal_settings set enabled = false where client_id = ${shop.client.id}`);
    const sale = await sell(shop.auth, shop.product.id);
    // Its follow-up ran (and found issuing off) before issuing is on again: no race with it.
    await fiscalFollowUpsSettled();
    await db.execute(sql`update fiscal_settings set enabled = true,
      enabled_at = now() - interval '10 minutes' where client_id = ${shop.client.id}`);
    expect(await notesOf(shop.auth)).toEqual([]);
    // Younger than two minutes: the follow-up may still be at work, the sweep leaves it.
    await sweepFiscal(t.app.ctx);
    expect(await notesOf(shop.auth)).toEqual([]);
    await db.execute(sql`update sales set created_at = now() - interval '3 minutes' where id = ${sale.id}`);
    const before = sefaz.calls.NFeAutorizacao4 ?? 0;
    await sweepFiscal(t.app.ctx);
    const note = await noteOf(shop.auth, sale.id);
    expect(note).toMatchObject({ status: 'authorised', number: 1, totalCents: 1300, statusCode: '100' });
    await sweepFiscal(t.app.ctx);
    expect(await notesOf(shop.auth)).toHaveLength(1);
    expect((sefaz.calls.NFeAutorizacao4 ?? 0) - before).toBe(1);
  });

  it('"CPF na nota?" is kept with the sale: a note the sweep issues later still carries it', async () => {
    const shop = await fiscalShop();
    const db = t.database.db;
    // The follow-up never ran for this sale (a restart between the commit and the note).
    await db.execute(sql`update fiscal_settings set enabled = false where client_id = ${shop.client.id}`);
    const sale = await sell(shop.auth, shop.product.id, { consumerDocument: '529.982.247-25' });
    await fiscalFollowUpsSettled();
    await db.execute(sql`update fiscal_settings set enabled = true,
      enabled_at = now() - interval '10 minutes' where client_id = ${shop.client.id}`);
    await db.execute(sql`update sales set created_at = now() - interval '3 minutes' where id = ${sale.id}`);
    await sweepFiscal(t.app.ctx);
    const note = await noteOf(shop.auth, sale.id);
    expect(note).toMatchObject({ status: 'authorised', consumerDocument: '52998224725' });
    const xml = (await api(t, shop.auth).get(`/fiscal/notes/${note.id}/xml`)).body;
    expect(xml).toContain('<dest><CPF>52998224725</CPF>');
  });

  it('a sale made before issuing was switched on gets no note', async () => {
    const shop = await fiscalShop();
    const db = t.database.db;
    await db.execute(sql`update fiscal_settings set enabled = false where client_id = ${shop.client.id}`);
    const sale = await sell(shop.auth, shop.product.id);
    await db.execute(sql`update sales set created_at = now() - interval '1 hour' where id = ${sale.id}`);
    await db.execute(sql`update fiscal_settings set enabled = true,
      enabled_at = now() - interval '10 minutes' where client_id = ${shop.client.id}`);
    await sweepFiscal(t.app.ctx);
    expect(await notesOf(shop.auth)).toEqual([]);
  });

  it('voids a rejected note and a skipped number by inutilização, once, in one range', async () => {
    const shop = await fiscalShop();
    const first = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expect(first).toMatchObject({ status: 'authorised', number: 1 });
    sefaz.forceNext = '778';
    const second = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expect(second).toMatchObject({ status: 'rejected', number: 2, statusCode: '778' });
    expect(second.statusText).toBe(
      'Rejeição: Informado NCM inexistente. Confira os dados da nota e envie de novo.',
    );
    // The next number raised by hand: 3 and 4 are never used.
    expectStatus(
      await shop.api.put(
        '/fiscal/settings',
        settingsBody(shop.cnpj, { enabled: true, csc: '', nextNumber: 5 }),
      ),
      200,
    );
    const fifth = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    expect(fifth).toMatchObject({ status: 'authorised', number: 5 });

    const calls = sefaz.calls.NFeInutilizacao4 ?? 0;
    await sweepFiscal(t.app.ctx);
    const mine = sefaz.voids.filter((v) => v.cnpj === shop.cnpj);
    expect(mine).toEqual([{ cnpj: shop.cnpj, series: 1, from: 2, to: 4 }]);
    const notes = await notesOf(shop.auth);
    expect(notes.find((n) => n.number === 2)?.status).toBe('voided');
    expect(
      notes
        .filter((n) => n.status === 'authorised')
        .map((n) => n.number)
        .sort(),
    ).toEqual([1, 5]);
    const voids = (
      (await t.database.db.execute(
        sql`select from_number, to_number, status_code, reason from fiscal_voids where client_id = ${shop.client.id}`,
      )) as unknown as {
        rows: { from_number: number; to_number: number; status_code: string; reason: string }[];
      }
    ).rows;
    expect(voids).toEqual([{ from_number: 2, to_number: 4, status_code: '102', reason: AUTO_VOID_REASON }]);
    // Again: nothing left to void, nothing sent.
    const after = sefaz.calls.NFeInutilizacao4 ?? 0;
    await sweepFiscal(t.app.ctx);
    expect(after - calls).toBeGreaterThanOrEqual(1);
    expect(sefaz.voids.filter((v) => v.cnpj === shop.cnpj)).toHaveLength(1);
    expect(
      (
        (await t.database.db.execute(
          sql`select count(*)::int as n from fiscal_voids where client_id = ${shop.client.id}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0].n,
    ).toBe(1);
  });

  it('a range SEFAZ refuses is kept with its answer and rings the bell, never sent again; 539 is not voided', async () => {
    const shop = await fiscalShop();
    const notify = vi.spyOn(t.app.ctx, 'notify');
    try {
      sefaz.forceNext = '778';
      const rejected = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
      expect(rejected).toMatchObject({ status: 'rejected', number: 1 });
      // SEFAZ already has number 1 voided (another system voided it): 256.
      sefaz.voids.push({ cnpj: shop.cnpj, series: 1, from: 1, to: 1 });
      sefaz.forceNext = '539';
      const held = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
      expect(held).toMatchObject({ status: 'rejected', number: 2, statusCode: '539' });

      notify.mockClear();
      await sweepFiscal(t.app.ctx);
      expect(notify).toHaveBeenCalledWith(shop.client.id, {
        message:
          'A SEFAZ recusou a inutilização automática da NFC-e nº 1 (série 1): Rejeição: Uma NF-e da faixa já está inutilizada na Base de dados da SEFAZ. Confira na página Fiscal.',
        alertColor: 'error',
      });
      const rows = (
        (await t.database.db.execute(
          sql`select from_number, to_number, status_code from fiscal_voids where client_id = ${shop.client.id}`,
        )) as unknown as { rows: { from_number: number; to_number: number; status_code: string }[] }
      ).rows;
      expect(rows).toEqual([{ from_number: 1, to_number: 1, status_code: '256' }]);
      const calls = sefaz.calls.NFeInutilizacao4 ?? 0;
      await sweepFiscal(t.app.ctx);
      expect(sefaz.calls.NFeInutilizacao4 ?? 0).toBe(calls);
      const notes = await notesOf(shop.auth);
      expect(notes.map((n) => [n.number, n.status])).toEqual(
        expect.arrayContaining([
          [1, 'rejected'],
          [2, 'rejected'],
        ]),
      );
    } finally {
      notify.mockRestore();
    }
  });

  it('numberRanges groups consecutive numbers', () => {
    expect(numberRanges([9, 3, 4, 5, 4, 12, 11])).toEqual([
      [3, 5],
      [9, 9],
      [11, 12],
    ]);
    expect(numberRanges([])).toEqual([]);
  });
});

describe('every origin gets its one note', { timeout: 120_000 }, () => {
  it('a comanda close gives one authorised note, also when the close is retried with its key', async () => {
    const shop = await fiscalShop({}, [1], { clientTypeId: 6 });
    const tab = expectStatus(await shop.api.post('/comanda', { people: 2 }), 201, 'open comanda');
    expectStatus(
      await shop.api.post(
        `/comanda/${tab.id}/line`,
        { productId: shop.product.id, quantity: 2 },
        { 'idempotency-key': `line-${Date.now()}-${tab.id}` },
      ),
      201,
    );
    const total = expectStatus(await shop.api.get(`/comanda/${tab.id}`), 200).totals.totalCents as number;
    expectStatus(
      await shop.api.post(`/comanda/${tab.id}/payment`, {
        kind: 'amount',
        method: 'pix',
        amountCents: total,
      }),
      201,
    );
    const closeKey = { 'idempotency-key': `close-${Date.now()}-${tab.id}` };
    const sale = expectStatus(await shop.api.post(`/comanda/${tab.id}/close`, {}, closeKey), 201);
    expectStatus(await shop.api.post(`/comanda/${tab.id}/close`, {}, closeKey), 200);
    const note = await noteOf(shop.auth, sale.id);
    expect(note).toMatchObject({ status: 'authorised', number: 1, totalCents: total });
    const xml = (await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body;
    expect(xml).toContain(`<tPag>17</tPag><vPag>${(total / 100).toFixed(2)}</vPag>`);
    await sweepFiscal(t.app.ctx);
    const { notes } = expectStatus<{ notes: FiscalNote[] }>(await shop.api.get('/fiscal/notes'), 200);
    expect(notes).toHaveLength(1);
  });

  it('an offline-synced sale gives one authorised note, sent twice or not', async () => {
    const shop = await fiscalShop();
    const body = {
      clientSaleId: crypto.randomUUID(),
      madeAt: new Date(Date.now() - 20 * 60_000).toISOString(),
      sale: {
        items: [{ productId: shop.product.id, quantity: 2 }],
        payments: [{ method: 'money', amountCents: 1300 }],
      },
      prices: [{ unitPriceCents: 650, additionals: [] }],
    };
    const [a, b] = await Promise.all([
      shop.api.post('/sale/offline', body),
      shop.api.post('/sale/offline', body),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    const sale = a.json();
    const note = await noteOf(shop.auth, sale.id);
    expect(note).toMatchObject({ status: 'authorised', number: 1, totalCents: 1300 });
    await sweepFiscal(t.app.ctx);
    const { notes } = expectStatus<{ notes: FiscalNote[] }>(await shop.api.get('/fiscal/notes'), 200);
    expect(notes).toHaveLength(1);
  });
});

describe('product fiscal fields', { timeout: 120_000 }, () => {
  it('a product sets only some fields: the rest follow the shop defaults, even when they change', async () => {
    const shop = await fiscalShop();
    const saved = expectStatus(
      await shop.api.put(`/fiscal/product/${shop.product.id}`, { fields: { ncm: '19059090' } }),
      200,
    );
    expect(saved).toEqual({ fields: { ncm: '19059090' }, defaults: DEFAULTS });
    expectStatus(
      await shop.api.put(
        '/fiscal/settings',
        settingsBody(shop.cnpj, {
          enabled: true,
          csc: '',
          defaults: { ...DEFAULTS, cfop: '5405', csosn: '500' },
        }),
      ),
      200,
    );
    const note = await noteOf(shop.auth, (await sell(shop.auth, shop.product.id)).id);
    const xml = (await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body;
    expect(xml).toContain('<NCM>19059090</NCM><CFOP>5405</CFOP>');
    expect(xml).toContain('<CSOSN>500</CSOSN>');
    // Nothing given: back to the defaults.
    expect(
      expectStatus(await shop.api.put(`/fiscal/product/${shop.product.id}`, { fields: {} }), 200).fields,
    ).toBeNull();
  });

  it('the product CSV import reads NCM, CFOP, CSOSN, origem, CEST and unit; a bad cell names its line and column', async () => {
    const shop = await fiscalShop();
    const sku = `FIS-${shop.client.id}`;
    const importCsv = (csv: string, dryRun = false) => shop.api.post('/product/import', { csv, dryRun });
    const bad = await importCsv(
      [
        'nome;sku;preco_venda;ncm;cfop;csosn;origem;cest;unidade_fiscal',
        `Bolo;${sku};10,00;2106;5102;102;0;;UN`,
      ].join('\n'),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().result.errors).toEqual(
      expect.arrayContaining([{ line: 2, column: 'ncm', message: 'NCM deve ter 8 dígitos' }]),
    );
    const ok = await importCsv(
      [
        'nome;sku;preco_venda;ncm;cfop;csosn;origem;cest;unidade_fiscal',
        `Bolo;${sku};10,00;1905.90.90;5405;500;0 - Nacional;17.023.00;kg`,
        `Suco;${sku}-2;6,00;;;;;;`,
      ].join('\n'),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ created: 2, invalidLines: 0 });
    const list = expectStatus(await shop.api.get(`/product/client/${shop.client.id}?q=${sku}`), 200);
    const bolo = list.items.find((p: { sku: string }) => p.sku === sku);
    const suco = list.items.find((p: { sku: string }) => p.sku === `${sku}-2`);
    expect(expectStatus(await shop.api.get(`/fiscal/product/${bolo.id}`), 200).fields).toEqual({
      ncm: '19059090',
      cfop: '5405',
      csosn: '500',
      origin: '0',
      cest: '1702300',
      unit: 'KG',
    });
    expect(expectStatus(await shop.api.get(`/fiscal/product/${suco.id}`), 200).fields).toBeNull();
    // A second import changes only the columns it fills.
    expectStatus(await importCsv(['nome;sku;preco_venda;cfop', `Bolo;${sku};10,00;5102`].join('\n')), 200);
    expect(expectStatus(await shop.api.get(`/fiscal/product/${bolo.id}`), 200).fields).toMatchObject({
      ncm: '19059090',
      cfop: '5102',
      cest: '1702300',
    });
  });

  it('the product CSV export writes the fiscal columns, and the export imports back unchanged', async () => {
    const shop = await fiscalShop();
    const sku = `EXP-${shop.client.id}`;
    const importCsv = (csv: string) => shop.api.post('/product/import', { csv, dryRun: false });
    expectStatus(
      await importCsv(
        [
          'nome;sku;preco_venda;ncm;cfop;csosn;origem;cest;unidade_fiscal',
          `Bolo;${sku};10,00;19059090;5405;500;2;1702300;KG`,
          `Suco;${sku}-2;6,00;;5102;;;;`,
          `Agua;${sku}-3;3,00;;;;;;`,
        ].join('\n'),
      ),
      200,
    );
    const exported = await shop.api.get(`/product/client/${shop.client.id}/export?q=${sku}`);
    expect(exported.statusCode).toBe(200);
    expect(exported.body.split('\r\n')[0]).toMatch(
      /;ncm;cfop;csosn;origem;cest;unidade_fiscal;cclasstrib;cst_ibs_cbs$/,
    );
    const rows = Papa.parse<Record<string, string>>(exported.body.slice(1), {
      header: true,
      skipEmptyLines: true,
    }).data;
    const fiscalOf = (name: string) => {
      const row = rows.find((r) => r.nome === name);
      return [row?.ncm, row?.cfop, row?.csosn, row?.origem, row?.cest, row?.unidade_fiscal];
    };
    expect(fiscalOf('Bolo')).toEqual(['19059090', '5405', '500', '2', '1702300', 'KG']);
    // Only a product's own fields: blank where the shop's default applies.
    expect(fiscalOf('Suco')).toEqual(['', '5102', '', '', '', '']);
    expect(fiscalOf('Agua')).toEqual(['', '', '', '', '', '']);
    const fieldsBefore = await Promise.all(
      rows.map(async (r) => {
        const id = (
          await shop.api.get(`/product/client/${shop.client.id}?q=${encodeURIComponent(r.sku)}`)
        ).json().items[0].id;
        return expectStatus(await shop.api.get(`/fiscal/product/${id}`), 200).fields;
      }),
    );
    const again = await importCsv(exported.body);
    expect(again.json()).toMatchObject({ updated: 3, invalidLines: 0 });
    const fieldsAfter = await Promise.all(
      rows.map(async (r) => {
        const id = (
          await shop.api.get(`/product/client/${shop.client.id}?q=${encodeURIComponent(r.sku)}`)
        ).json().items[0].id;
        return expectStatus(await shop.api.get(`/fiscal/product/${id}`), 200).fields;
      }),
    );
    expect(fieldsAfter).toEqual(fieldsBefore);
    expect(fieldsAfter[rows.findIndex((r) => r.nome === 'Suco')]).toEqual({ cfop: '5102' });
    const reExported = await shop.api.get(`/product/client/${shop.client.id}/export?q=${sku}`);
    expect(reExported.body).toBe(exported.body);
  });

  it('the CSV carries cClassTrib and its CST: a wrong code refuses its line by name, nothing half-imported; the export writes both back', async () => {
    const shop = await fiscalShop({ crt: '3' });
    const sku = `CLT-${shop.client.id}`;
    const importCsv = (csv: string) => shop.api.post('/product/import', { csv, dryRun: false });
    const header = 'nome;sku;preco_venda;ncm;cclasstrib;cst_ibs_cbs';
    const bad = await importCsv(
      [
        header,
        `Prato;${sku};19,99;21069090;200047;200`,
        `Brinde;${sku}-2;1,00;;999999;`,
        `Pão;${sku}-3;0,80;;200003;000`,
        `Suco;${sku}-4;6,00;;;000`,
      ].join('\n'),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().result.errors).toEqual([
      {
        line: 3,
        column: 'cclasstrib',
        message: 'Classificação tributária (cClassTrib) 999999 não existe na tabela do IBS/CBS para NFC-e.',
      },
      {
        line: 4,
        column: 'cst_ibs_cbs',
        message:
          'CST do IBS/CBS 000 não corresponde ao cClassTrib 200003 (o CST são os 3 primeiros dígitos do cClassTrib)',
      },
      {
        line: 5,
        column: 'cst_ibs_cbs',
        message:
          'CST do IBS/CBS 000 sem cClassTrib: preencha a coluna cclasstrib (o CST são os 3 primeiros dígitos dela)',
      },
    ]);
    // Nothing written: not the good line, not the bad lines' products without their fiscal fields.
    const none = expectStatus(await shop.api.get(`/product/client/${shop.client.id}?q=${sku}`), 200);
    expect(none.items).toEqual([]);

    const ok = await importCsv(
      [
        `${header};estoque`,
        `Prato;${sku};19,99;21069090;200047;200;10`,
        `Brinde;${sku}-2;1,00;;410999;;10`,
      ].join('\n'),
    );
    expect(ok.json()).toMatchObject({ created: 2, invalidLines: 0 });
    const list = expectStatus(await shop.api.get(`/product/client/${shop.client.id}?q=${sku}`), 200);
    const prato = list.items.find((p: { sku: string }) => p.sku === sku);
    expect(expectStatus(await shop.api.get(`/fiscal/product/${prato.id}`), 200).fields).toEqual({
      ncm: '21069090',
      cClassTrib: '200047',
    });
    const exported = await shop.api.get(`/product/client/${shop.client.id}/export?q=${sku}`);
    const rows = Papa.parse<Record<string, string>>(exported.body.slice(1), {
      header: true,
      skipEmptyLines: true,
    }).data;
    const cols = (name: string) => {
      const row = rows.find((r) => r.nome === name);
      return [row?.cclasstrib, row?.cst_ibs_cbs];
    };
    expect(cols('Prato')).toEqual(['200047', '200']);
    expect(cols('Brinde')).toEqual(['410999', '410']);
    // The imported class reaches the note: bares e restaurantes, 40% less.
    const sale = await sell(shop.auth, prato.id, {
      items: [{ productId: prato.id, quantity: 1 }],
      payments: [{ method: 'money', amountCents: 1999 }],
      cashDepositAmountCents: 1999,
    });
    const note = await noteOf(shop.auth, sale.id);
    expect(note.status).toBe('authorised');
    expect((await shop.api.get(`/fiscal/notes/${note.id}/xml`)).body).toContain(
      '<IBSCBS><CST>200</CST><cClassTrib>200047</cClassTrib>',
    );
  });
});

describe('a failing SEFAZ (the invariants of bench/nfce-outage.ts, small)', { timeout: 240_000 }, () => {
  it('60 sales with timeouts, 5xx, lost answers and an outage: no number reused, no gap not voided, each note authorised once', async () => {
    const shop = await fiscalShop();
    const db = t.database.db;
    sefaz.chaos = { timeout: 0.05, error5xx: 0.1, lostAnswer: 0.15 };
    const sales: number[] = [];
    try {
      for (let i = 0; i < 60; i++) {
        if (i === 20) await sefaz.goAway();
        if (i === 30) await sefaz.comeBack();
        const one = {
          items: [{ productId: shop.product.id, quantity: 1 }],
          payments: [{ method: 'money', amountCents: 650 }],
        };
        sales.push((await sell(shop.auth, shop.product.id, one)).id);
      }
      // Every note has left `pending` (authorised, or in contingency when SEFAZ was silent).
      for (const id of sales) await noteOf(shop.auth, id);
    } finally {
      sefaz.chaos = null;
      await sefaz.comeBack().catch(() => undefined);
    }
    // The link is back: the jobs settle everything.
    await vi.waitFor(
      async () => {
        await transmitWaiting(t.app.ctx);
        await sweepFiscal(t.app.ctx);
        const open = (await db.execute(sql`select count(*)::int as n from fiscal_notes
          where client_id = ${shop.client.id} and status in ('pending', 'contingency', 'queued')`)) as unknown as {
          rows: { n: number }[];
        };
        if (Number(open.rows[0].n) > 0) throw new Error('notes still waiting');
      },
      { timeout: 120_000, interval: 200 },
    );
    const rows = (
      (await db.execute(sql`select sale_id, number, status, access_key, protocol from fiscal_notes
        where client_id = ${shop.client.id}`)) as unknown as {
        rows: { sale_id: number; number: number; status: string; access_key: string; protocol: string }[];
      }
    ).rows;
    const atSefaz = [...sefaz.notes.values()].filter((n) => n.cnpj === shop.cnpj);
    const voids = sefaz.voids.filter((v) => v.cnpj === shop.cnpj);
    const voided = (n: number) => voids.some((v) => n >= v.from && n <= v.to);
    // 0 numbers reused: one key per number at SEFAZ, and no authorised number voided.
    const numbers = atSefaz.map((n) => n.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers.filter(voided)).toEqual([]);
    // 0 gaps that are not voided.
    const last = Math.max(...rows.map((r) => r.number));
    const gaps = Array.from({ length: last }, (_, i) => i + 1).filter(
      (n) => !numbers.includes(n) && !voided(n),
    );
    expect(gaps).toEqual([]);
    // Every sale's note authorised exactly once, with the protocol SEFAZ holds for its key.
    expect(rows.map((r) => r.sale_id).sort((a, b) => a - b)).toEqual(sales);
    expect(rows.filter((r) => r.status !== 'authorised')).toEqual([]);
    for (const r of rows) expect(sefaz.notes.get(r.access_key)?.protocol).toBe(r.protocol);
    expect(atSefaz).toHaveLength(60);
    expect(sefaz.chaosCounts.lostAnswer).toBeGreaterThan(0);
  });
});
