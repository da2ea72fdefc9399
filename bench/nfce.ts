/**
 * NFC-e build + sign + validate (issue 32's target: p95 < 150 ms per note). Each note is a sale of
 * 1-5 lines with a CPF on every third, built by the API's own pipeline (composeNote: access key,
 * NF-e 4.00 XML, XMLDSig signature with an A1 from the test CA, QR code v2, XSD check against
 * PL_010_V1.30) without the database or SEFAZ. "before" is the same pipeline with the previous check
 * (xmllint-wasm, which compiles the 14 schemas on every call), on BENCH_BEFORE notes (default 30: it
 * takes ~1 s each); "after" is the app's check (libxml2-wasm, schema compiled once) on BENCH_NOTES
 * notes (default 10,000). One process, one run, back to back.
 *
 *   npx tsx bench/nfce.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProductFiscal } from '@balcao/core/fiscal';
import type { PaymentMethod } from '@balcao/core/status';
import { validateXML } from 'xmllint-wasm';
import { composeNote, type Draft, type QrSettings } from '../apps/api/src/modules/fiscal/issue.ts';
import type { Signer } from '../apps/api/src/modules/fiscal/xml.ts';
import { makeA1, makeTestCa } from '../apps/api/test/fakes/sefazCerts.ts';
import { machine, ROOT } from './lib.ts';

const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const BEFORE = Number(process.env.BENCH_BEFORE ?? 30);

const ca = makeTestCa();
const a1: Signer = makeA1(ca, { cnpj: '11222333000181', name: 'LANCHONETE BENCH LTDA', password: 'x' });
const qr: QrSettings = {
  qr: 'https://nfce.local.balcao/qrcode',
  chave: 'https://nfce.local.balcao/consulta',
  cscId: '000001',
  csc: 'GPB0JBWLUR6HWFTVEAS6RJ69GPCROFPBBB8G',
};
const FISCAL: ProductFiscal = {
  ncm: '21069090',
  cfop: '5102',
  csosn: '102',
  origin: '0',
  cest: null,
  unit: 'UN',
  cClassTrib: '000001',
};
const METHODS: PaymentMethod[] = ['money', 'debitCard', 'creditCard', 'pix'];

function draftOf(n: number): Draft {
  const lines = 1 + (n % 5);
  const items = Array.from({ length: lines }, (_, i) => {
    const quantity = 1 + ((n + i) % 3);
    const unitPriceCents = 350 + ((n * 7 + i * 13) % 4000);
    return {
      code: `P${i + 1}`,
      description: `Produto de teste número ${i + 1}`,
      barcode: i % 2 === 0 ? '7891000315507' : null,
      quantity,
      unitPriceCents,
      grossCents: quantity * unitPriceCents,
      discountCents: 0,
      otherCents: 0,
      fiscal: FISCAL,
    };
  });
  const total = items.reduce((s, i) => s + i.grossCents, 0);
  return {
    issuer: {
      cnpj: '11222333000181',
      ie: '9044016688',
      legalName: 'Lanchonete Bench Ltda',
      tradeName: 'Lanchonete',
      crt: '1',
      uf: 'PR',
      cityCode: '4106902',
      cityName: 'Curitiba',
      street: 'Rua XV de Novembro',
      streetNumber: '100',
      district: 'Centro',
      zipCode: '80020310',
    },
    code: 10_000_000 + n,
    series: 1,
    number: n + 1,
    tpAmb: 2,
    consumerDocument: n % 3 === 0 ? '52998224725' : null,
    items,
    payments: [{ method: METHODS[n % METHODS.length], amountCents: total }],
    changeCents: 0,
    totalCents: total,
    additionalInfo: `Venda no ${n + 1}`,
    timeZone: 'America/Sao_Paulo',
  };
}

const SCHEMES = join(ROOT, 'apps/api/src/modules/fiscal/schemes/PL_010_V1.30');
const files = readdirSync(SCHEMES)
  .filter((f) => f.endsWith('.xsd'))
  .map((fileName) => ({ fileName, contents: readFileSync(join(SCHEMES, fileName), 'utf8') }));
const root = files.find((f) => f.fileName === 'nfe_v4.00.xsd');

/** The previous check: xmllint-wasm with every schema handed over (and compiled) per call. */
async function oldValidate(xml: string) {
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [root as (typeof files)[number]],
    preload: files.filter((f) => f !== root),
  });
  if (!result.valid) throw new Error(result.errors[0]?.message);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
function summary(name: string, times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((s, x) => s + x, 0);
  return `| ${name} | ${times.length} | ${(total / 1000).toFixed(1)} | ${pct(sorted, 50).toFixed(1)} | ${pct(sorted, 95).toFixed(1)} | ${pct(sorted, 99).toFixed(1)} | ${sorted[sorted.length - 1].toFixed(1)} |`;
}

async function note(n: number) {
  const result = await composeNote(draftOf(n), new Date(), 1, a1, qr);
  if ('schema' in result) throw new Error(`schema: ${result.schema.message}`);
  return result.xml;
}

const before: number[] = [];
for (let n = 0; n < BEFORE; n++) {
  const start = performance.now();
  const xml = await note(n);
  await oldValidate(xml);
  before.push(performance.now() - start);
}
const after: number[] = [];
for (let n = 0; n < NOTES; n++) {
  const start = performance.now();
  await note(n);
  after.push(performance.now() - start);
}

console.log(`\n${new Date().toISOString().slice(0, 10)} · ${machine()}\n`);
console.log('| check | notes | total s | p50 ms | p95 ms | p99 ms | max ms |');
console.log('|---|---|---|---|---|---|---|');
// "before" = the pipeline plus xmllint-wasm's check; its own libxml2-wasm check is in it too (~2 ms).
console.log(summary('before: xmllint-wasm, schemas compiled per note', before));
console.log(summary('after: libxml2-wasm, schema compiled once', after));
