import { createHash, createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  accessKey,
  accessKeyCheckDigit,
  cnpjCheckDigits,
  consumerDocumentSchema,
  fiscalVoidSchema,
  formatRatePercent,
  ibsCbsApplies,
  ibsCbsItem,
  ibsCbsMissingRate,
  ibsCbsRates,
  ibsCbsRatesOf,
  ibsCbsRateText,
  isValidAccessKey,
  isValidCnpjAny,
  parseRatePercent,
  productFiscalOverrideSchema,
  qrCodeV2,
  qrCodeV2Text,
  qrCodeV3,
  qrCodeV3Text,
  sefazUrls,
  shopIbsCbsRatesSchema,
  stateRules,
  TPAG_OF,
  textToHex,
} from './fiscal.ts';
import { PAYMENT_METHODS } from './status.ts';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

describe('access key', () => {
  test('check digit of published keys (a real NF-e of RO and the PR NFC-e example of sped-nfe docs/QRCode.md)', () => {
    expect(accessKeyCheckDigit('1121020588350900022455002000006342100065755')).toBe(3);
    expect(isValidAccessKey('11210205883509000224550020000063421000657553')).toBe(true);
    expect(isValidAccessKey('41170410422724000187650010000005101000010235')).toBe(true);
    expect(isValidAccessKey('41170410422724000187650010000005101000010236')).toBe(false);
    expect(isValidAccessKey('4117041042272400018765001000000510100001023')).toBe(false);
  });

  test('built from its parts: cUF, AAMM, CNPJ, model, series, number, tpEmis, cNF and the digit', () => {
    const key = accessKey({
      uf: 'PR',
      year: 2017,
      month: 4,
      cnpj: '10.422.724/0001-87',
      model: 65,
      series: 1,
      number: 510,
      tpEmis: 1,
      code: 1023,
    });
    expect(key).toBe('41170410422724000187650010000005101000010235');
  });

  test('an alphanumeric CNPJ in the key: each character counts as its ASCII code minus 48 (NT 2025.001)', () => {
    // Worked value of nfephp-org/sped-common tests/KeysTest.php testBuildWithCnpjAlfa (src/Keys.php,
    // commit ca57df3 "Ajustes para CNPJ alfanumérico"): GO, 04/2006, CNPJ 12ABC34501DE35, model 55,
    // series 12, number 780, tpEmis 1, cNF 26730161 -> digit 0.
    const key = accessKey({
      uf: 'GO',
      year: 2006,
      month: 4,
      cnpj: '12.ABC.345/01DE-35',
      model: 55,
      series: 12,
      number: 780,
      tpEmis: 1,
      code: 26730161,
    });
    expect(key).toBe('52060412ABC34501DE35550120000007801267301610');
    expect(accessKeyCheckDigit(key.slice(0, 43))).toBe(0);
    expect(isValidAccessKey(key)).toBe(true);
    expect(isValidAccessKey(`${key.slice(0, 43)}1`)).toBe(false);
    // By hand: the sum of (code - 48) x weight over the 43 characters is 891, rest 0 -> digit 0; the
    // letters read as 0 would sum 588, rest 5 -> digit 6, a key SEFAZ refuses (253).
    const sum = [...key.slice(0, 43)]
      .reverse()
      .reduce((acc, ch, i) => acc + (ch.charCodeAt(0) - 48) * ((i % 8) + 2), 0);
    expect(sum).toBe(891);
    // Letters only where the CNPJ's 12 first characters are (PL_010 TChNFe: [0-9]{6}[0-9A-Z]{12}[0-9]{26}).
    expect(isValidAccessKey('5206041AABC34501DE35550120000007801267301610')).toBe(false);
  });

  test('a rest of 0 or 1 gives the digit 0', () => {
    // 43 zeros and a one at the end: sum 2 -> rest 2 -> 9; all zeros -> rest 0 -> 0.
    expect(accessKeyCheckDigit('0'.repeat(43))).toBe(0);
    expect(accessKeyCheckDigit(`${'0'.repeat(42)}1`)).toBe(9);
  });
});

describe('CNPJ', () => {
  test('numeric and the alphanumeric example of the Receita Federal (12.ABC.345/01DE-35)', () => {
    expect(isValidCnpjAny('10.422.724/0001-87')).toBe(true);
    expect(isValidCnpjAny('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpjAny('12ABC34501DE36')).toBe(false);
    expect(isValidCnpjAny('11111111111111')).toBe(false);
    expect(isValidCnpjAny('12ABC34501DEXX')).toBe(false);
    // Its digits: A = 17, B = 18, C = 19 ...; weights 2..9 from the right: sum 459, rest 8 -> 3, then 5.
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(cnpjCheckDigits('104227240001')).toBe('87');
  });

  test('"CPF na nota" takes a CPF or a CNPJ and says which is wrong in Portuguese', () => {
    expect(consumerDocumentSchema.parse('529.982.247-25')).toBe('52998224725');
    const bad = consumerDocumentSchema.safeParse('123.456.789-00');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('Informe um CPF ou CNPJ válido');
  });
});

describe('tPag', () => {
  test('every payment method has a tPag; outros carry their description', () => {
    for (const method of PAYMENT_METHODS) expect(TPAG_OF[method].tPag).toMatch(/^\d{2}$/);
    expect(TPAG_OF.money.tPag).toBe('01');
    expect(TPAG_OF.creditCard.tPag).toBe('03');
    expect(TPAG_OF.debitCard.tPag).toBe('04');
    expect(TPAG_OF.pix.tPag).toBe('17');
    expect(TPAG_OF.pixQrCodeStatic.tPag).toBe('20');
    expect(TPAG_OF.storeCredit).toEqual({ tPag: '99', xPag: 'Vale-troca' });
  });
});

describe('QR code v2', () => {
  // The offline NFC-e of sped-nfe tests/fixtures/xml/nfce_com_qrcode.xml (BA homologação): its
  // qrCode's text before the hash, the digest value in hex, and the hash's form.
  const fixtureText =
    '29181033657677000156650010001654399001654399|2|2|01|150.00|6d395a7251544b4d7876374131426c6e662f6e6d4e4756582b4e383d|1';

  test('offline text: key, version 2, tpAmb, day, value, DigestValue in hex, idCSC without zeros', () => {
    expect(textToHex('m9ZrQTKMxv7A1Blnf/nmNGVX+N8=')).toBe(
      '6d395a7251544b4d7876374131426c6e662f6e6d4e4756582b4e383d',
    );
    expect(
      qrCodeV2Text({
        url: 'http://hnfe.sefaz.ba.gov.br/servicos/nfce/modulos/geral/NFCEC_consulta_chave_acesso.aspx',
        accessKey: '29181033657677000156650010001654399001654399',
        tpAmb: 2,
        cscId: '000001',
        csc: 'x',
        offline: { day: '01', totalCents: 15000, digestValue: 'm9ZrQTKMxv7A1Blnf/nmNGVX+N8=' },
      }),
    ).toBe(fixtureText);
  });

  test('online URL: ?p=chave|2|tpAmb|idCSC|SHA-1(text + CSC) in capitals', () => {
    const url = qrCodeV2(
      {
        url: 'https://www.homologacao.nfce.fazenda.sp.gov.br/NFCeConsultaPublica/Paginas/ConsultaQRCode.aspx',
        accessKey: '41170410422724000187650010000005101000010235',
        tpAmb: 2,
        cscId: '000001',
        csc: 'GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G',
      },
      sha1,
    );
    const text = '41170410422724000187650010000005101000010235|2|2|1';
    // SHA-1 of the text followed by sped-nfe's test CSC.
    expect(sha1(`${text}GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G`).toUpperCase()).toMatch(/^[0-9A-F]{40}$/);
    expect(url).toBe(
      `https://www.homologacao.nfce.fazenda.sp.gov.br/NFCeConsultaPublica/Paginas/ConsultaQRCode.aspx?p=${text}|${sha1(
        `${text}GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G`,
      ).toUpperCase()}`,
    );
  });
});

describe('QR code v3 (NT 2025.001)', () => {
  // The XSD's own patterns for v3 (PL_009_V4 leiauteNFe_v4.00.xsd, infNFeSupl/qrCode).
  const XSD_V3_ONLINE = /^((HTTPS?|https?):\/\/.*\?p=([0-9]{34}(1|3|4)[0-9]{9})\|[3]\|[1-2])$/;
  const XSD_V3_OFFLINE =
    /^((HTTPS?|https?):\/\/.*\?p=([0-9]{34}(9)[0-9]{9})\|[3]\|[1-2]\|([0]{1}[1-9]{1}|[1-2]{1}[0-9]{1}|[3]{1}[0-1]{1})\|(0|0\.[0-9]{2}|[1-9]{1}[0-9]{0,12}(\.[0-9]{2})?)\|((1|2|3)?)\|(([0-9]{3,14})?)\|([a-zA-Z0-9+/]+[=]{0,2}))$/;
  const URL =
    'https://www.homologacao.nfce.fazenda.sp.gov.br/NFCeConsultaPublica/Paginas/ConsultaQRCode.aspx';
  const never = () => {
    throw new Error('an online v3 QR code is not signed');
  };

  test('online: ?p=chave|3|tpAmb only (no CSC, no hash)', () => {
    const url = qrCodeV3(
      { url: URL, accessKey: '41170410422724000187650010000005101000010235', tpAmb: 2 },
      never,
    );
    expect(url).toBe(`${URL}?p=41170410422724000187650010000005101000010235|3|2`);
    expect(url).toMatch(XSD_V3_ONLINE);
  });

  test("offline text as the NT's layout example: chave|3|tpAmb|dia|vNF|tp_idDest|cDest", () => {
    // NT 2025.001's example (reproduced in sped-nfe QRCode::get300): a CNPJ consumer on the 10th, R$ 200,12.
    expect(
      qrCodeV3Text({
        url: URL,
        accessKey: '12345678901234567890123456789012349123456789',
        tpAmb: 1,
        offline: { day: '10', totalCents: 20012, consumerDocument: '12345678901234' },
      }),
    ).toBe('12345678901234567890123456789012349123456789|3|1|10|200.12|1|12345678901234');
    const base = { url: URL, accessKey: '41170410422724000187650010000005109000010235', tpAmb: 2 as const };
    expect(
      qrCodeV3Text({ ...base, offline: { day: '05', totalCents: 1300, consumerDocument: '52998224725' } }),
    ).toBe('41170410422724000187650010000005109000010235|3|2|05|13.00|2|52998224725');
    // An unidentified consumer: only the separators.
    expect(qrCodeV3Text({ ...base, offline: { day: '31', totalCents: 0, consumerDocument: null } })).toBe(
      '41170410422724000187650010000005109000010235|3|2|31|0.00||',
    );
  });

  test("offline URL ends with the A1's RSA-SHA1 signature of the text, in base64, and matches the XSD", () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const sign = (text: string) => createSign('RSA-SHA1').update(text).sign(privateKey, 'base64');
    const input = {
      url: URL,
      accessKey: '41170410422724000187650010000005109000010235',
      tpAmb: 2 as const,
      offline: { day: '05', totalCents: 1300, consumerDocument: '52998224725' },
    };
    const url = qrCodeV3(input, sign);
    expect(url).toMatch(XSD_V3_OFFLINE);
    const text = qrCodeV3Text(input);
    expect(url.startsWith(`${URL}?p=${text}|`)).toBe(true);
    const signature = url.slice(`${URL}?p=${text}|`.length);
    expect(createVerify('RSA-SHA1').update(text).verify(publicKey, signature, 'base64')).toBe(true);
    expect(qrCodeV3({ ...input, offline: { ...input.offline, consumerDocument: null } }, sign)).toMatch(
      XSD_V3_OFFLINE,
    );
  });
});

describe('state rules as data', () => {
  test('SP allows no offline contingency but has EPEC; other states do, with 24 hours', () => {
    expect(stateRules('SP')).toMatchObject({ offlineContingency: false, epec: true });
    expect(stateRules('PR')).toEqual({
      offlineContingency: true,
      contingencyHours: 24,
      cancelHours: 24,
      epec: false,
    });
    expect(sefazUrls('SP', 'producao').epec).toBe(
      'https://nfce.epec.fazenda.sp.gov.br/EPECws/RecepcaoEPEC.asmx',
    );
  });

  test('URLs per state and environment, SVRS states served by SVRS', () => {
    expect(sefazUrls('SP', 'homologacao').authorize).toMatch(
      /^https:\/\/homologacao\.nfce\.fazenda\.sp\.gov\.br/,
    );
    const ba = sefazUrls('BA', 'producao');
    expect(ba.authorize).toMatch(/svrs\.rs\.gov\.br/);
    expect(ba.qrCode).toBe('http://nfe.sefaz.ba.gov.br/servicos/nfce/qrcode.aspx');
  });
});

test('voiding: a range and a reason of 15 characters', () => {
  const bad = fiscalVoidSchema.safeParse({ series: 1, from: 4, to: 5, reason: 'curta' });
  expect(bad.error?.issues.map((i) => i.message)).toEqual([
    'A justificativa precisa ter pelo menos 15 caracteres.',
  ]);
  const range = fiscalVoidSchema.safeParse({
    series: 1,
    from: 5,
    to: 4,
    reason: 'numeração pulada por falha',
  });
  expect(range.error?.issues[0]?.message).toBe('O número final deve ser maior ou igual ao inicial.');
});

describe('IBS/CBS of the tax reform (NT 2025.002)', () => {
  test("2026's test-year rates, reduced by the cClassTrib, each amount rounded half up to the cent", () => {
    expect(ibsCbsItem(1300, '000001', ibsCbsRates(2026))).toEqual({
      cst: '000',
      cClassTrib: '000001',
      group: {
        baseCents: 1300,
        reduction: 0,
        ibsUf: { rate: 1000, effective: 1000, cents: 1 },
        ibsMun: { rate: 0, effective: 0, cents: 0 },
        cbs: { rate: 9000, effective: 9000, cents: 12 },
        ibsCents: 1,
      },
    });
    // 60% less: CBS 0.36% of R$ 250,00 = R$ 0,90; IBS 0.04% = R$ 0,10.
    const reduced = ibsCbsItem(25_000, '200034', ibsCbsRates(2026)).group;
    expect(reduced?.cbs).toEqual({ rate: 9000, effective: 3600, cents: 90 });
    expect(reduced?.ibsUf).toEqual({ rate: 1000, effective: 400, cents: 10 });
    // Cesta básica (100% less): nothing due, the group still informed.
    expect(ibsCbsItem(999, '200003', ibsCbsRates(2026)).group?.cbs.cents).toBe(0);
    // CST 410: no gIBSCBS.
    expect(ibsCbsItem(500, '410999', ibsCbsRates(2026))).toEqual({
      cst: '410',
      cClassTrib: '410999',
      group: null,
    });
    expect(ibsCbsRateText(9000)).toBe('0.9000');
  });

  test("the transition of LC 214/2025 by the note's year: the law's rates, the shop's where the law leaves them", () => {
    // 2026: CBS 0.9% (art. 346), IBS 0.1% state (art. 343); nothing for the shop to enter.
    expect(ibsCbsRatesOf(2026, null)).toEqual({
      rates: { cbs: 9000, ibsUf: 1000, ibsMun: 0 },
      missing: null,
    });
    // 2027: IBS 0.05% + 0.05% (art. 344); the CBS is the set rate less 0.1 point (art. 347).
    expect(ibsCbsRatesOf(2027, null)).toEqual({ rates: null, missing: ['cbs'] });
    expect(ibsCbsRatesOf(2027, { '2027': { cbs: 88_000 } })).toEqual({
      rates: { cbs: 87_000, ibsUf: 500, ibsMun: 500 },
      missing: null,
    });
    // 2029 on: every rate is set later (reference rates by Senate resolution).
    expect(ibsCbsRatesOf(2030, { '2027': { cbs: 88_000 } }).missing).toEqual(['cbs', 'ibsUf', 'ibsMun']);
    expect(ibsCbsRatesOf(2040, { '2033': { cbs: 88_000, ibsUf: 100_000, ibsMun: 77_000 } }).rates).toEqual({
      cbs: 88_000,
      ibsUf: 100_000,
      ibsMun: 77_000,
    });
    expect(ibsCbsMissingRate(2027, 'cbs')).toBe(
      'Alíquota de CBS de 2027 não informada: a LC 214/2025 deixa essa alíquota para ser fixada depois. Informe-a em Configurações > Fiscal.',
    );
  });

  test('a 2027 item, exact to the cent: CBS 8.7% (8.8% less 0.1 point), IBS 0.05% + 0.05%, and 60% less', () => {
    const rates = ibsCbsRatesOf(2027, { '2027': { cbs: 88_000 } }).rates as NonNullable<
      ReturnType<typeof ibsCbsRatesOf>['rates']
    >;
    // R$ 13,00: CBS 1.131 -> 1.13; IBS UF 0.0065 -> 0.01; IBS Mun 0.0065 -> 0.01.
    expect(ibsCbsItem(1300, '000001', rates).group).toMatchObject({
      cbs: { rate: 87_000, effective: 87_000, cents: 113 },
      ibsUf: { rate: 500, effective: 500, cents: 1 },
      ibsMun: { rate: 500, effective: 500, cents: 1 },
      ibsCents: 2,
    });
    // R$ 19,99 in a restaurant (40% less): CBS 5.22% = 1.043478 -> 1.04; IBS 0.03% = 0.005997 -> 0.01.
    expect(ibsCbsItem(1999, '200047', rates).group).toMatchObject({
      cbs: { rate: 87_000, effective: 52_200, cents: 104 },
      ibsUf: { rate: 500, effective: 300, cents: 1 },
    });
  });

  test("the shop enters only the rates the law leaves to be set, as the fiscal page's percent text", () => {
    expect(shopIbsCbsRatesSchema.parse({ '2027': { cbs: 88_000 } })).toEqual({ '2027': { cbs: 88_000 } });
    const fixed = shopIbsCbsRatesSchema.safeParse({ '2027': { ibsUf: 700 } });
    expect(fixed.error?.issues[0]?.message).toBe(
      'IBS estadual de 2027 já é fixada pela LC 214/2025 (LC 214/2025, arts. 344 e 347): não se informa.',
    );
    expect(shopIbsCbsRatesSchema.safeParse({ '2026': { cbs: 1 } }).error?.issues[0]?.message).toBe(
      'Ano das alíquotas do IBS/CBS deve ser de 2027 a 2033',
    );
    expect(parseRatePercent('8,8')).toBe(88_000);
    expect(parseRatePercent('0,0500')).toBe(500);
    expect(parseRatePercent('')).toBeNull();
    expect(parseRatePercent('8,12345')).toBeNaN();
    expect(formatRatePercent(88_000)).toBe('8,8');
  });

  test('the group is required for regime normal, left out for Simples Nacional unless asked', () => {
    expect(ibsCbsApplies('auto', '3')).toBe(true);
    expect(ibsCbsApplies('auto', '1')).toBe(false);
    expect(ibsCbsApplies('always', '4')).toBe(true);
    expect(ibsCbsApplies('never', '3')).toBe(false);
  });

  test('a cClassTrib outside the NFC-e table is refused in Portuguese', () => {
    const checked = productFiscalOverrideSchema.safeParse({ cClassTrib: '999999' });
    expect(checked.success).toBe(false);
    expect(checked.error?.issues[0].message).toBe(
      'Classificação tributária (cClassTrib) 999999 não existe na tabela do IBS/CBS para NFC-e.',
    );
  });
});
