import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { FISCAL_MESSAGES } from '@balcao/core/fiscal';
import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import { formatInZone } from '@balcao/core/time';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { fiscalNotes } from './schema.ts';
import type { SettingsRow } from './service.ts';
import { tag } from './xml.ts';

/**
 * The DANFE NFC-e (Manual de Especificações Técnicas do DANFE NFC-e e QR Code): issuer, items, totals,
 * payments, the key query URL and key, the consumer, the protocol (or the contingency text), the QR
 * code; "SEM VALOR FISCAL" in homologação. As print lines (the receipt printer) and as an 80 mm PDF
 * (PDFKit with DejaVu embedded, as the budget PDF; qrcode draws the QR code).
 */

type NoteRow = typeof fiscalNotes.$inferSelect;

const groupKey = (key: string) => key.replace(/(\d{4})(?=\d)/g, '$1 ');

type Danfe = {
  header: string[];
  items: { text: string; total: string }[];
  totals: [string, string][];
  footer: string[];
  qrCode: string;
  warnings: string[];
};

function danfeOf(settings: SettingsRow, note: NoteRow, timeZone: string): Danfe {
  const xml = note.xml;
  const items = [...xml.matchAll(/<det nItem="\d+">([\s\S]*?)<\/det>/g)].map((m) => {
    const d = m[1];
    const q = Number(tag(d, 'qCom'));
    return {
      text: `${tag(d, 'cProd')} ${tag(d, 'xProd')} ${formatQuantity(q)} ${tag(d, 'uCom')} x ${formatCents(
        Math.round(Number(tag(d, 'vUnCom')) * 100),
      )}`,
      total: formatCents(Math.round(Number(tag(d, 'vProd')) * 100)),
    };
  });
  const cents = (name: string) => Math.round(Number(tag(xml, name) ?? 0) * 100);
  const pays = [...xml.matchAll(/<detPag>([\s\S]*?)<\/detPag>/g)].map((m) => {
    const t = tag(m[1], 'tPag') ?? '';
    const label: Record<string, string> = {
      '01': 'Dinheiro',
      '02': 'Cheque',
      '03': 'Cartão de Crédito',
      '04': 'Cartão de Débito',
      '05': 'Crédito Loja',
      '15': 'Boleto',
      '17': 'PIX',
      '18': 'Transferência',
      '20': 'PIX',
      '90': 'Sem pagamento',
    };
    return [
      label[t] ?? tag(m[1], 'xPag') ?? 'Outros',
      formatCents(Math.round(Number(tag(m[1], 'vPag')) * 100)),
    ] as [string, string];
  });
  const warnings: string[] = [];
  if (note.environment !== 'producao') warnings.push(FISCAL_MESSAGES.noFiscalValue);
  if (note.tpEmis === 9) warnings.push(FISCAL_MESSAGES.contingencyText, 'Pendente de autorização');
  // São Paulo's EPEC (SEFAZ declared down): the contingency text and the EPEC's protocol.
  if (note.tpEmis === 4) {
    warnings.push(FISCAL_MESSAGES.epecText, `EPEC registrado: protocolo ${note.epecProtocol ?? ''}`);
    if (note.status !== 'authorised') warnings.push('Pendente de autorização');
  }
  const consumer = note.consumerDocument
    ? `CONSUMIDOR - ${note.consumerDocument.length === 11 ? 'CPF' : 'CNPJ'} ${note.consumerDocument}`
    : 'CONSUMIDOR NÃO IDENTIFICADO';
  return {
    header: [
      settings.legalName,
      `CNPJ ${settings.cnpj}  IE ${settings.ie}`,
      `${settings.street}, ${settings.streetNumber} - ${settings.district} - ${settings.cityName}/${settings.uf}`,
      'Documento Auxiliar da Nota Fiscal de Consumidor Eletrônica',
    ],
    items,
    totals: [
      ['Qtde. total de itens', String(items.length)],
      ['Valor total R$', formatCents(cents('vProd'))],
      ...(cents('vDesc') > 0 ? ([['Descontos R$', formatCents(cents('vDesc'))]] as [string, string][]) : []),
      ...(cents('vOutro') > 0
        ? ([['Acréscimos R$', formatCents(cents('vOutro'))]] as [string, string][])
        : []),
      ['Valor a pagar R$', formatCents(cents('vNF'))],
      ['FORMA PAGAMENTO', 'VALOR PAGO R$'],
      ...pays,
      ...(cents('vTroco') > 0 ? ([['Troco R$', formatCents(cents('vTroco'))]] as [string, string][]) : []),
    ],
    footer: [
      'Consulte pela Chave de Acesso em',
      tag(xml, 'urlChave') ?? '',
      groupKey(note.accessKey),
      consumer,
      `NFC-e nº ${String(note.number).padStart(9, '0')} Série ${String(note.series).padStart(3, '0')} ${formatInZone(
        note.createdAt,
        timeZone,
        'dateTime',
      )}`,
      note.protocol ? `Protocolo de autorização: ${note.protocol}` : '',
      note.authorisedAt
        ? `Data de autorização: ${formatInZone(note.authorisedAt, timeZone, 'dateTime')}`
        : '',
    ].filter(Boolean),
    qrCode: note.qrCodeUrl ?? tag(xml, 'qrCode') ?? '',
    warnings,
  };
}

/** The DANFE as print lines (the print station's text; the QR code's URL printed under it). */
export function danfeLines(
  settings: SettingsRow,
  note: NoteRow,
  timeZone: string,
  paperWidth: number,
): string[] {
  const width = paperWidth === 58 ? 32 : 48;
  const d = danfeOf(settings, note, timeZone);
  const pair = (a: string, b: string) => {
    const space = Math.max(1, width - a.length - b.length);
    return `${a}${' '.repeat(space)}${b}`.slice(0, width);
  };
  const wrap = (text: string) => text.match(new RegExp(`.{1,${width}}`, 'g')) ?? [''];
  return [
    ...d.warnings,
    ...d.header.flatMap(wrap),
    '-'.repeat(width),
    ...d.items.flatMap((i) => [...wrap(i.text), pair('', i.total)]),
    '-'.repeat(width),
    ...d.totals.map(([a, b]) => pair(a, b)),
    '-'.repeat(width),
    ...d.footer.flatMap(wrap),
    ...wrap(d.qrCode),
    ...d.warnings,
  ].map((l) => l.slice(0, 200));
}

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function pdfFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
  };
  return fonts;
}

/** The DANFE NFC-e as an 80 mm wide PDF with the QR code. */
export async function danfePdf(settings: SettingsRow, note: NoteRow, timeZone: string): Promise<Buffer> {
  const d = danfeOf(settings, note, timeZone);
  const qr = await QRCode.toBuffer(d.qrCode || note.accessKey, {
    errorCorrectionLevel: 'M',
    margin: 1,
    width: 300,
  });
  const width = 226; // 80 mm in points
  const doc = new PDFDocument({ size: [width, 1400], margin: 10, info: { Title: `NFC-e ${note.number}` } });
  const { regular, bold } = pdfFonts();
  doc.registerFont('Body', regular);
  doc.registerFont('Body-Bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const inner = width - 20;
  const center = (text: string, size = 7, font = 'Body') =>
    doc.font(font).fontSize(size).text(text, { width: inner, align: 'center' });
  for (const w of d.warnings) center(w, 8, 'Body-Bold');
  for (const [i, h] of d.header.entries()) center(h, i === 0 ? 8 : 6.5, i === 0 ? 'Body-Bold' : 'Body');
  doc.moveDown(0.4);
  for (const item of d.items) {
    doc.font('Body').fontSize(6.5).text(item.text, { width: inner });
    doc.text(item.total, { width: inner, align: 'right' });
  }
  doc.moveDown(0.4);
  for (const [a, b] of d.totals) {
    const y = doc.y;
    doc
      .font('Body')
      .fontSize(7)
      .text(a, 10, y, { width: inner * 0.65 });
    doc.text(b, 10, y, { width: inner, align: 'right' });
  }
  doc.moveDown(0.4);
  for (const f of d.footer) center(f, 6.5);
  doc.moveDown(0.3);
  doc.image(qr, (width - 120) / 2, doc.y, { width: 120 });
  doc.y += 124;
  for (const w of d.warnings) center(w, 8, 'Body-Bold');
  doc.end();
  return done;
}
