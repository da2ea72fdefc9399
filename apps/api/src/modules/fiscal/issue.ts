import { createHash, createSign, randomInt } from 'node:crypto';
import {
  accessKey,
  EPEC_IN_OPERATION,
  type EpecStatus,
  FISCAL_MESSAGES,
  type FiscalEnvironment,
  type FiscalNote,
  fiscalWithDefaults,
  type IbsCbsMode,
  ibsCbsApplies,
  nfeDateTime,
  type ProductFiscal,
  type QrCodeVersion,
  qrCodeV2,
  qrCodeV3,
  SEFAZ_DOWN_CODES,
  sefazUrls,
  stateRules,
  tpAmbOf,
  type Uf,
} from '@balcao/core/fiscal';
import type { Sale } from '@balcao/core/sale';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { AppError, unavailable } from '../../errors.ts';
import { type Actor, adminOf } from '../../lib/actor.ts';
import { type ReceiptSettings, receiptSettingsSql } from '../printing/receipt.ts';
import { enqueuePrintJob } from '../printing/service.ts';
import { findSale, saleConsumerDocument } from '../sale/read.ts';
import { danfeLines } from './danfe.ts';
import { fiscalNotes, fiscalVoids } from './schema.ts';
import { callSefaz, type SefazService } from './sefaz.ts';
import {
  fieldsOfProducts,
  noteRow,
  openA1,
  openCsc,
  type SettingsRow,
  settingsRow,
  toNote,
} from './service.ts';
import {
  buildNfe,
  cancelEvent,
  consSitNFe,
  consStatServ,
  element,
  envEvento,
  enviNFe,
  epecEvent,
  inutNFe,
  missingIbsCbsRate,
  NFE_NS,
  type NoteInput,
  type Signer,
  signXml,
  tag,
  validateSchema,
  withSupplement,
} from './xml.ts';

/**
 * Issuing (issue 32): after a sale's commit (never inside it), a note is numbered in the database
 * (one UPDATE ... RETURNING on the issuer/model/series counter row: its row lock orders two tills and
 * two instances), its signed XML persisted, then sent. SEFAZ silent -> offline contingency (tpEmis 9)
 * where the state allows it, or the queue (São Paulo); the transmission job sends them once the link
 * is back. 100 stores the protocol, 204 is resolved by a query, other cStats are kept with their text.
 */

type NoteRow = typeof fiscalNotes.$inferSelect;
export type Draft = Omit<NoteInput, 'issuedAt' | 'accessKey' | 'tpEmis' | 'contingency'> & {
  timeZone: string;
};

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const CONTINGENCY_REASON = 'SEFAZ sem resposta no prazo: emissao em contingencia off-line';
const EPEC_REASON = 'SEFAZ-SP em paralisacao declarada: emissao em contingencia EPEC';

/** The note's lines from a sale: items with their fiscal fields, sale-level discounts shared out. */
async function draftOf(db: Executor, settings: SettingsRow, sale: Sale, consumerDocument: string | null) {
  const [client] = await db
    .select({ timeZone: clients.timeZone })
    .from(clients)
    .where(eq(clients.id, settings.clientId));
  const own = await fieldsOfProducts(
    db,
    settings.clientId,
    sale.items.flatMap((i) => (i.productId === null ? [] : [i.productId])),
  );
  const extraDiscount = sale.discountCents + sale.couponDiscountCents;
  const base = sale.items.reduce((s, i) => s + i.totalCents, 0);
  let given = 0;
  const items = sale.items.map((item, index) => {
    const last = index === sale.items.length - 1;
    const share = last
      ? extraDiscount - given
      : base > 0
        ? Math.floor((extraDiscount * item.totalCents) / base)
        : 0;
    given += share;
    const fiscal: ProductFiscal = fiscalWithDefaults(
      item.productId !== null ? own.get(item.productId) : undefined,
      settings.defaults,
    );
    return {
      code: item.sku || (item.productId ? String(item.productId) : `L${index + 1}`),
      description: item.variantName ? `${item.description} ${item.variantName}` : item.description,
      barcode: item.barcode,
      quantity: item.quantity,
      unitPriceCents: item.unitTotalCents,
      grossCents: item.grossCents,
      discountCents: item.discountCents + share,
      otherCents: last ? sale.freightCents : 0,
      fiscal,
    };
  });
  const draft: Draft = {
    issuer: {
      cnpj: settings.cnpj,
      ie: settings.ie,
      legalName: settings.legalName,
      tradeName: settings.tradeName,
      crt: settings.crt,
      uf: settings.uf as Uf,
      cityCode: settings.cityCode,
      cityName: settings.cityName,
      street: settings.street,
      streetNumber: settings.streetNumber,
      district: settings.district,
      zipCode: settings.zipCode,
    },
    code: 0,
    series: 0,
    number: 0,
    tpAmb: tpAmbOf(settings.environment as FiscalEnvironment),
    consumerDocument: consumerDocument ?? null,
    items,
    payments: tendered(sale),
    changeCents: sale.changeCents,
    totalCents: sale.finalAmountCents,
    additionalInfo: `Venda no ${sale.number}`,
    ibsCbs: ibsCbsApplies(settings.ibsCbsMode as IbsCbsMode, settings.crt),
    ibsCbsRates: settings.ibsCbsRates ?? {},
    timeZone: client?.timeZone ?? 'America/Sao_Paulo',
  };
  return draft;
}

/**
 * vPag is what the customer handed over: the sale keeps each payment net of the change, so the change
 * goes back on the cash payment (else the first). SEFAZ checks sum(vPag) - vTroco = vNF.
 */
function tendered(sale: Sale) {
  const payments = sale.payments.map((p) => ({ method: p.method, amountCents: p.amountCents }));
  if (sale.changeCents > 0 && payments.length > 0) {
    const cash = payments.findLast((p) => p.method === 'money') ?? payments[0];
    cash.amountCents += sale.changeCents;
  }
  return payments;
}

function qrUrls(settings: SettingsRow) {
  const env = settings.environment as FiscalEnvironment;
  const uf = settings.uf as Uf;
  if (env === 'local')
    return { qr: 'https://nfce.local.balcao/qrcode', chave: 'https://nfce.local.balcao/consulta' };
  const urls = sefazUrls(uf, env);
  return { qr: urls.qrCode ?? '', chave: urls.keyQuery };
}

/** A note that cannot be built: an XSD error, or (`setup`) something the shop must set first. */
export type SchemaFailure = { element: string; message: string; setup?: boolean };
/** The note's status text for a build failure. */
const failureText = (f: SchemaFailure, hint = '') =>
  f.setup
    ? f.message
    : `Erro de schema no elemento ${f.element}: a nota não foi enviada.${hint ? ` ${hint}` : ''}`;

/** Builds, signs, adds the QR code and validates. A schema error comes back named, nothing signed is kept. */
export async function signedNote(
  ctx: AppContext,
  settings: SettingsRow,
  draft: Draft,
  at: Date,
  tpEmis: 1 | 4 | 9,
): Promise<{ xml: string; key: string; qrCode: string } | { schema: SchemaFailure }> {
  const { a1 } = openA1(ctx, settings);
  const urls = qrUrls(settings);
  return composeNote(draft, at, tpEmis, a1, {
    ...urls,
    cscId: settings.cscId,
    csc: openCsc(ctx, settings),
    version: settings.qrCodeVersion === 3 ? 3 : 2,
  });
}

export type QrSettings = {
  qr: string;
  chave: string;
  cscId: string;
  csc: string;
  /** 2 (CSC hash, the default) or 3 (NT 2025.001). */
  version?: QrCodeVersion;
};

/** QR code v3's offline signature: RSA with SHA-1 by the A1's key, base64 (as sped-nfe signs it). */
const signWithA1 = (a1: Signer) => (text: string) =>
  createSign('RSA-SHA1').update(text, 'utf8').sign(a1.keyPem, 'base64');

/**
 * The note's whole pipeline without the database: access key, XML, signature, QR code, XSD check
 * (bench/nfce.ts measures it).
 */
export async function composeNote(
  draft: Draft,
  at: Date,
  tpEmis: 1 | 4 | 9,
  a1: Signer,
  qr: QrSettings,
): Promise<{ xml: string; key: string; qrCode: string } | { schema: SchemaFailure }> {
  const issuedAt = nfeDateTime(at, draft.timeZone);
  const key = accessKey({
    uf: draft.issuer.uf,
    year: Number(issuedAt.slice(0, 4)),
    month: Number(issuedAt.slice(5, 7)),
    cnpj: draft.issuer.cnpj,
    model: 65,
    series: draft.series,
    number: draft.number,
    tpEmis,
    code: draft.code,
  });
  const input: NoteInput = {
    ...draft,
    accessKey: key,
    issuedAt,
    tpEmis,
    ...(tpEmis === 9 ? { contingency: { at: issuedAt, reason: CONTINGENCY_REASON } } : {}),
    ...(tpEmis === 4 ? { contingency: { at: issuedAt, reason: EPEC_REASON } } : {}),
  };
  // A rate LC 214/2025 leaves to be set and the shop has not entered: stopped, nothing signed or sent.
  const unset = missingIbsCbsRate(input);
  if (unset) return { schema: { ...unset, setup: true } };
  const signed = signXml(buildNfe(input), 'infNFe', a1);
  const qrCode =
    qr.version === 3
      ? qrCodeV3(
          {
            url: qr.qr,
            accessKey: key,
            tpAmb: draft.tpAmb,
            ...(tpEmis === 9
              ? {
                  offline: {
                    day: issuedAt.slice(8, 10),
                    totalCents: draft.totalCents,
                    consumerDocument: draft.consumerDocument,
                  },
                }
              : {}),
          },
          signWithA1(a1),
        )
      : qrCodeV2(
          {
            url: qr.qr,
            accessKey: key,
            tpAmb: draft.tpAmb,
            cscId: qr.cscId,
            csc: qr.csc,
            ...(tpEmis === 9
              ? {
                  offline: {
                    day: issuedAt.slice(8, 10),
                    totalCents: draft.totalCents,
                    digestValue: signed.digestValue,
                  },
                }
              : {}),
          },
          sha1,
        );
  const xml = withSupplement(signed.xml, qrCode, qr.chave);
  const issue = await validateSchema(xml, 'nfe_v4.00.xsd');
  if (issue) return { schema: issue };
  return { xml, key, qrCode };
}

/** Takes the next number of the series: the counter row's lock orders concurrent callers. */
export async function allocateNumber(tx: Executor, clientId: number, series: number): Promise<number> {
  await tx.execute(sql`insert into fiscal_counters (client_id, model, series, next_number)
    values (${clientId}, 65, ${series}, 1) on conflict do nothing`);
  const result = (await tx.execute(sql`update fiscal_counters set next_number = next_number + 1
    where client_id = ${clientId} and model = 65 and series = ${series}
    returning next_number - 1 as number`)) as unknown as { rows: { number: number }[] };
  return Number(result.rows[0].number);
}

type Sent =
  | { kind: 'authorised'; protocol: string; procXml: string; statusText: string }
  | { kind: 'rejected'; statusCode: string; statusText: string }
  | { kind: 'silent' }
  /** SEFAZ answered that it is down (108/109): not a rejection of the note. */
  | { kind: 'down'; statusCode: string; statusText: string };

const procOf = (nfe: string, protNFe: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="${NFE_NS}" versao="4.00">${nfe.replace(/^<\?xml[^>]*>/, '')}${protNFe.replace(' versao=', ` xmlns="${NFE_NS}" versao=`)}</nfeProc>`;

function target(ctx: AppContext, settings: SettingsRow) {
  const { a1, id } = openA1(ctx, settings);
  return { env: settings.environment as FiscalEnvironment, uf: settings.uf as Uf, a1, a1Id: id };
}

/** Queries a key; the protocol when SEFAZ has it authorised. */
async function queryKey(ctx: AppContext, settings: SettingsRow, key: string, nfe: string): Promise<Sent> {
  const answer = await callSefaz(
    ctx.config,
    target(ctx, settings),
    'NFeConsultaProtocolo4',
    consSitNFe(tpAmbOf(settings.environment as FiscalEnvironment), key),
  );
  if (!answer.ok) return { kind: 'silent' };
  const prot = element(answer.body, 'protNFe');
  const cStat = tag(answer.body, 'cStat') ?? '';
  if (SEFAZ_DOWN_CODES.includes(cStat)) return { kind: 'silent' };
  if ((cStat === '100' || cStat === '150') && prot)
    return {
      kind: 'authorised',
      protocol: tag(prot, 'nProt') ?? '',
      procXml: procOf(nfe, prot),
      statusText: tag(prot, 'xMotivo') ?? '',
    };
  return { kind: 'rejected', statusCode: cStat, statusText: tag(answer.body, 'xMotivo') ?? '' };
}

/** Sends a signed note (NFeAutorizacao4, synchronous) and reads the answer. */
export async function transmit(
  ctx: AppContext,
  settings: SettingsRow,
  xml: string,
  key: string,
): Promise<Sent> {
  const answer = await callSefaz(
    ctx.config,
    target(ctx, settings),
    'NFeAutorizacao4',
    enviNFe(Date.now() % 1_000_000_000, xml),
  );
  if (!answer.ok) return { kind: 'silent' };
  const prot = element(answer.body, 'protNFe');
  const cStat = (prot ? tag(prot, 'cStat') : tag(answer.body, 'cStat')) ?? '';
  const xMotivo = (prot ? tag(prot, 'xMotivo') : tag(answer.body, 'xMotivo')) ?? '';
  if (SEFAZ_DOWN_CODES.includes(cStat)) return { kind: 'down', statusCode: cStat, statusText: xMotivo };
  if (cStat === '100' || cStat === '150')
    return {
      kind: 'authorised',
      protocol: tag(prot ?? '', 'nProt') ?? '',
      procXml: procOf(xml, prot ?? ''),
      statusText: xMotivo,
    };
  // Duplicate: SEFAZ already has this key (a lost answer, a retry): its protocol is taken by query.
  if (cStat === '204') {
    const found = await queryKey(ctx, settings, key, xml);
    if (found.kind !== 'rejected') return found;
  }
  return { kind: 'rejected', statusCode: cStat, statusText: xMotivo };
}

/** A fix hint for the rejections a shop can fix. */
export function fixHint(code: string): string {
  switch (code) {
    case '213':
      return 'O certificado é de outro CNPJ: envie o certificado da loja em Configurações > Fiscal.';
    case '225':
    case 'schema':
      return 'Confira os dados fiscais do produto (NCM, CFOP, CSOSN) e do emitente.';
    case '297':
      return 'Envie o certificado de novo: a assinatura não confere.';
    case '539':
      return 'Este número já foi usado com outra chave: ajuste o próximo número da série e inutilize o que sobrar.';
    case '656':
      return 'A SEFAZ bloqueou por consumo indevido: aguarde uma hora antes de reenviar.';
    case '1021':
    case '1023':
    case '1024':
      return 'Confira a classificação tributária do IBS/CBS (cClassTrib) do produto ou o padrão da loja em Configurações > Fiscal.';
    case '1026':
    case '1037':
      return 'As alíquotas do IBS/CBS não são as do ano da nota: atualize o Balcão.';
    default:
      return 'Confira os dados da nota e envie de novo.';
  }
}

async function save(db: Executor, id: number, set: Partial<NoteRow>) {
  await db.update(fiscalNotes).set(set).where(eq(fiscalNotes.id, id));
}

async function applySent(ctx: AppContext, note: NoteRow, sent: Sent, xml: string, key: string) {
  if (sent.kind === 'authorised') {
    await save(ctx.db, note.id, {
      status: 'authorised',
      accessKey: key,
      xml,
      procXml: sent.procXml,
      protocol: sent.protocol,
      statusCode: '100',
      statusText: sent.statusText,
      authorisedAt: sql`now()` as never,
      attempts: note.attempts + 1,
    });
    return true;
  }
  if (sent.kind === 'rejected') {
    await save(ctx.db, note.id, {
      status: 'rejected',
      statusCode: sent.statusCode,
      statusText: `${sent.statusText}. ${fixHint(sent.statusCode)}`,
      attempts: note.attempts + 1,
    });
    ctx.notify(note.clientId, {
      message: `NFC-e nº ${note.number} rejeitada: ${sent.statusText}`,
      alertColor: 'error',
    });
    return true;
  }
  return false;
}

/** Queues the DANFE NFC-e on the receipt printer, once per note (idempotency key danfe-<id>). */
async function printDanfe(ctx: AppContext, actor: Actor, noteId: number) {
  const result = (await ctx.db.execute(
    sql`select ${receiptSettingsSql(actor.clientId)} as receipt`,
  )) as unknown as { rows: { receipt: ReceiptSettings | null }[] };
  const receipt = result.rows[0]?.receipt;
  if (!receipt) return;
  const row = await noteRow(ctx.db, actor, noteId);
  const settings = (await settingsRow(ctx.db, actor.clientId)) as SettingsRow;
  await enqueuePrintJob(ctx, actor, {
    profileId: receipt.profileId,
    kind: 'document',
    payload: {
      title: `NFC-e nº ${row.number}`,
      lines: danfeLines(settings, row, receipt.timeZone, receipt.paperWidth),
      // The consumer-query QR code: the print agent prints it as a native ESC/POS QR (issue 36).
      ...(row.qrCodeUrl ? { qr: row.qrCodeUrl } : {}),
    },
    idempotencyKey: `danfe-${row.id}`,
  });
}

/**
 * The follow-up of a recorded sale (called after its commit, not awaited by the checkout; or by the
 * sweep): numbers, signs, persists and sends its NFC-e. Safe to call twice: a sale has one note
 * (unique sale_id). The consumer's CPF/CNPJ is the one stored with the sale ("CPF na nota?").
 */
export async function issueForSale(
  ctx: AppContext,
  actor: Actor,
  saleId: number,
): Promise<FiscalNote | null> {
  const settings = await settingsRow(ctx.db, actor.clientId);
  if (!settings?.enabled) return null;
  const sale = await findSale(ctx.db, actor, saleId);
  if (sale.status === 'canceled') return null;
  const consumerDocument = await saleConsumerDocument(ctx.db, actor, saleId);
  const draft = await draftOf(ctx.db, settings, sale, consumerDocument);
  const env = settings.environment;
  const created = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(fiscalNotes).where(eq(fiscalNotes.saleId, saleId));
    if (existing) return { row: existing, fresh: false };
    const number = await allocateNumber(tx, settings.clientId, settings.series);
    let code = randomInt(1, 99_999_999);
    if (code === number) code += 1;
    const [row] = await tx
      .insert(fiscalNotes)
      .values({
        clientId: settings.clientId,
        saleId,
        series: settings.series,
        number,
        // A placeholder until signed (the key needs the issue time): unique per number.
        accessKey: `pending-${settings.clientId}-${settings.series}-${number}`,
        tpEmis: 1,
        environment: env,
        status: 'pending',
        totalCents: sale.finalAmountCents,
        consumerDocument,
        xml: '',
        draft: { ...draft, code, series: settings.series, number } as never,
      })
      .returning();
    return { row, fresh: true };
  });
  if (!created.fresh) return toNote(created.row);
  await sendNew(ctx, actor, settings, created.row);
  return toNote(await noteRow(ctx.db, actor, created.row.id));
}

async function sendNew(ctx: AppContext, actor: Actor, settings: SettingsRow, note: NoteRow) {
  const draft = note.draft as Draft;
  const built = await signedNote(ctx, settings, draft, new Date(), 1);
  if ('schema' in built) {
    await save(ctx.db, note.id, {
      status: 'rejected',
      statusCode: 'schema',
      statusText: failureText(built.schema, fixHint('schema')),
    });
    return;
  }
  // Persisted before it is sent.
  await save(ctx.db, note.id, { xml: built.xml, accessKey: built.key, qrCodeUrl: built.qrCode });
  const sent = await transmit(ctx, settings, built.xml, built.key);
  if (await applySent(ctx, note, sent, built.xml, built.key)) {
    if (sent.kind === 'authorised') await printDanfe(ctx, actor, note.id).catch(() => undefined);
    return;
  }
  // SEFAZ did not answer, or answered that it is down.
  const rules = stateRules(settings.uf as Uf);
  let queuedText: string = FISCAL_MESSAGES.spQueued;
  if (rules.epec && (sent.kind === 'down' || (await sefazDeclaredDown(ctx, settings)))) {
    const epec = await issueEpec(ctx, actor, settings, note, draft, built);
    if (epec === true) return;
    // The EPEC service itself is not in operation: the queue, saying so.
    if (typeof epec === 'string') queuedText = epec;
  }
  if (!rules.offlineContingency) {
    await save(ctx.db, note.id, { status: 'queued', statusText: queuedText, attempts: note.attempts + 1 });
    ctx.notify(note.clientId, { message: queuedText, alertColor: 'warning' });
    return;
  }
  const offline = await signedNote(ctx, settings, draft, new Date(), 9);
  if ('schema' in offline) {
    await save(ctx.db, note.id, {
      status: 'rejected',
      statusCode: 'schema',
      statusText: failureText(offline.schema),
    });
    return;
  }
  await save(ctx.db, note.id, {
    status: 'contingency',
    tpEmis: 9,
    firstKey: built.key,
    firstXml: built.xml,
    xml: offline.xml,
    accessKey: offline.key,
    qrCodeUrl: offline.qrCode,
    statusText: FISCAL_MESSAGES.contingencyText,
    transmitBy: sql`now() + ${`${rules.contingencyHours} hours`}::interval` as never,
    attempts: note.attempts + 1,
  });
  ctx.notify(note.clientId, {
    message: `NFC-e nº ${note.number} emitida em contingência: será transmitida quando a SEFAZ voltar (prazo de ${rules.contingencyHours} horas).`,
    alertColor: 'warning',
  });
  await printDanfe(ctx, actor, note.id).catch(() => undefined);
}

/** SEFAZ's status service says it is down (108/109): SEFAZ answered, so the link is fine. */
async function sefazDeclaredDown(ctx: AppContext, settings: SettingsRow): Promise<boolean> {
  const answer = await callSefaz(
    ctx.config,
    target(ctx, settings),
    'NFeStatusServico4',
    consStatServ(tpAmbOf(settings.environment as FiscalEnvironment), settings.uf as Uf),
  );
  return answer.ok && SEFAZ_DOWN_CODES.includes(tag(answer.body, 'cStat') ?? '');
}

/**
 * São Paulo's EPEC service's own status (EPECStatusServico, consStatServ as for NFeStatusServico4): 107
 * is in operation. SEFAZ-SP turns it on in production only while it needs it, so an EPEC is sent only
 * after this says 107 (nfephp-org/sped-nfe docs/metodos/EPECNFCe_SP.md, sefazStatusEpecNfce).
 */
export async function epecServiceStatus(
  ctx: AppContext,
  settings: SettingsRow,
): Promise<{ available: boolean | null; statusCode: string | null; statusText: string }> {
  const answer = await callSefaz(
    ctx.config,
    target(ctx, settings),
    'EPECStatusServico',
    consStatServ(tpAmbOf(settings.environment as FiscalEnvironment), settings.uf as Uf),
  );
  if (!answer.ok) return { available: null, statusCode: null, statusText: FISCAL_MESSAGES.epecSilent };
  const statusCode = tag(answer.body, 'cStat') ?? '';
  return {
    available: statusCode === EPEC_IN_OPERATION,
    statusCode,
    statusText: tag(answer.body, 'xMotivo') ?? '',
  };
}

/** The fiscal page's EPEC line: asked now, for a state with EPEC and a shop with its certificate. */
export async function epecStatusOf(ctx: AppContext, actor: Actor): Promise<EpecStatus> {
  const settings = await settingsRow(ctx.db, actor.clientId);
  const none = { available: null, statusCode: null, checkedAt: null };
  if (!settings || !stateRules(settings.uf as Uf).epec)
    return { applies: false, ...none, statusText: FISCAL_MESSAGES.epecNotApplicable };
  if (!settings.certificateSealed)
    return { applies: true, ...none, statusText: FISCAL_MESSAGES.noCertificate };
  const status = await epecServiceStatus(ctx, settings);
  return { applies: true, ...status, checkedAt: new Date().toISOString() };
}

/**
 * São Paulo with SEFAZ declared down: the same number signed again with tpEmis 4, its EPEC (event
 * 110140) registered at SEFAZ-SP's EPEC service, the DANFE printed with the contingency text; the
 * transmission job sends the note itself once SEFAZ is back. False when the EPEC could not be
 * registered (the caller queues the note as before); the queue's text when the EPEC service itself is not
 * in operation.
 */
async function issueEpec(
  ctx: AppContext,
  actor: Actor,
  settings: SettingsRow,
  note: NoteRow,
  draft: Draft,
  first: { xml: string; key: string },
): Promise<boolean | string> {
  // The EPEC service must be in operation (107) before its event is sent.
  const service = await epecServiceStatus(ctx, settings);
  if (!service.available)
    return FISCAL_MESSAGES.epecUnavailable(note.number, service.statusCode ?? '-', service.statusText);
  const built = await signedNote(ctx, settings, draft, new Date(), 4);
  if ('schema' in built) return false;
  const tpAmb = tpAmbOf(settings.environment as FiscalEnvironment);
  const event = epecEvent({
    uf: settings.uf as Uf,
    tpAmb,
    cnpj: settings.cnpj,
    key: built.key,
    at: nfeDateTime(new Date(), draft.timeZone),
    issuedAt: tag(built.xml, 'dhEmi') ?? '',
    ie: settings.ie,
    consumerDocument: draft.consumerDocument,
    totalCents: draft.totalCents,
  });
  const signed = signXml(event, 'infEvento', openA1(ctx, settings).a1).xml;
  const body = envEvento(Date.now() % 1_000_000_000, signed);
  if (await validateSchema(body, 'eventoEPEC_v1.00.xsd')) return false;
  const answer = await callSefaz(ctx.config, target(ctx, settings), 'RecepcaoEPEC', body);
  if (!answer.ok) return false;
  const ret = element(answer.body, 'retEvento') ?? '';
  // SEFAZ-SP registers an NFC-e EPEC with 136 "Evento registrado, mas não vinculado a NF-e" (the note
  // does not exist there yet; sped-nfe docs/metodos/EPECNFCe_SP.md); 124 "EPEC autorizado" is the
  // national (model 55) answer, taken too.
  if (!['136', '124'].includes(tag(ret, 'cStat') ?? '')) {
    ctx.notify(note.clientId, {
      message: `EPEC da NFC-e nº ${note.number} recusado: ${tag(ret || answer.body, 'xMotivo') ?? ''}`,
      alertColor: 'error',
    });
    return false;
  }
  const rules = stateRules(settings.uf as Uf);
  await save(ctx.db, note.id, {
    status: 'epec',
    tpEmis: 4,
    firstKey: first.key,
    firstXml: first.xml,
    xml: built.xml,
    accessKey: built.key,
    qrCodeUrl: built.qrCode,
    epecXml: `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${signed.replace(/^<\?xml[^>]*>/, '')}${ret.replace(' versao=', ` xmlns="${NFE_NS}" versao=`)}</procEventoNFe>`,
    epecProtocol: tag(ret, 'nProt'),
    statusText: FISCAL_MESSAGES.epecIssued,
    transmitBy: sql`now() + ${`${rules.contingencyHours} hours`}::interval` as never,
    attempts: note.attempts + 1,
  });
  ctx.notify(note.clientId, { message: FISCAL_MESSAGES.epecIssued, alertColor: 'warning' });
  await printDanfe(ctx, actor, note.id).catch(() => undefined);
  return true;
}

/**
 * The transmission job: contingency notes, São Paulo's queue and notes a crash left pending, each
 * sent once SEFAZ answers. A contingency note first asks SEFAZ about its normal twin (same number,
 * tpEmis 1) whose answer was lost: if it was authorised, that one stands and the contingency is not sent.
 * One run drains the whole backlog page by page (`batch` notes per read, oldest first, each note once
 * per run) while SEFAZ answers: after an outage thousands of notes wait, and one page per 30 s run
 * would take far longer than the backlog's target (bench/nfce-outage.ts). It stops when SEFAZ stays
 * silent for `silentStop` notes in a row (it is still down: the next run tries again) or after
 * `budgetMs` (under the job's lease).
 */
export async function transmitWaiting(
  ctx: AppContext,
  batch = 50,
  options: { budgetMs?: number; silentStop?: number } = {},
): Promise<{ sent: number; waiting: number }> {
  const budgetMs = options.budgetMs ?? 8 * 60_000;
  const silentStop = options.silentStop ?? 5;
  const start = Date.now();
  let sent = 0;
  let waiting = 0;
  let silentInRow = 0;
  let afterId = 0;
  while (Date.now() - start < budgetMs && silentInRow < silentStop) {
    const rows = await ctx.db
      .select()
      .from(fiscalNotes)
      .where(
        sql`${fiscalNotes.id} > ${afterId} and (${fiscalNotes.status} in ('contingency', 'epec', 'queued')
          or (${fiscalNotes.status} = 'pending' and ${fiscalNotes.createdAt} < now() - interval '2 minutes'))`,
      )
      .orderBy(fiscalNotes.id)
      .limit(batch);
    if (rows.length === 0) break;
    for (const note of rows) {
      afterId = note.id;
      if (silentInRow >= silentStop || Date.now() - start >= budgetMs) break;
      const done = await transmitOne(ctx, note);
      if (done === null) continue;
      if (done) {
        sent++;
        silentInRow = 0;
        ctx.changed(note.clientId, 'fiscal', note.id);
      } else {
        waiting++;
        silentInRow++;
      }
    }
  }
  return { sent, waiting };
}

/** One waiting note sent: true once SEFAZ decided it, false when SEFAZ was silent, null when skipped. */
async function transmitOne(ctx: AppContext, note: NoteRow): Promise<boolean | null> {
  const settings = await settingsRow(ctx.db, note.clientId);
  if (!settings?.certificateSealed) return null;
  const actor = await adminOf(ctx.db, note.clientId);
  // A contingency or EPEC note keeps its signed XML (tpEmis 9 / 4): sent as it is.
  if (note.status === 'contingency' || note.status === 'epec') {
    if (note.firstKey && note.firstXml) {
      const twin = await queryKey(ctx, settings, note.firstKey, note.firstXml);
      if (twin.kind === 'silent') return false;
      if (twin.kind === 'authorised' && (await applySent(ctx, note, twin, note.firstXml, note.firstKey)))
        return true;
    }
    return applySent(
      ctx,
      note,
      await transmit(ctx, settings, note.xml, note.accessKey),
      note.xml,
      note.accessKey,
    );
  }
  // Queued or left pending, already signed and maybe sent: SEFAZ may hold it (its answer lost). Asked
  // first, so the nfeProc kept is the document SEFAZ authorised, not one signed again (another dhEmi
  // and digest under the same key).
  if (note.xml && !note.accessKey.startsWith('pending-')) {
    const held = await queryKey(ctx, settings, note.accessKey, note.xml);
    if (held.kind === 'silent') return false;
    if (held.kind === 'authorised') {
      const done = await applySent(ctx, note, held, note.xml, note.accessKey);
      await printDanfe(ctx, actor, note.id).catch(() => undefined);
      return done;
    }
  }
  // Not at SEFAZ: signed again now (NFC-e must reach SEFAZ within minutes of dhEmi).
  const built = await signedNote(ctx, settings, note.draft as Draft, new Date(), 1);
  if ('schema' in built) {
    await save(ctx.db, note.id, {
      status: 'rejected',
      statusCode: 'schema',
      statusText: failureText(built.schema),
    });
    return null;
  }
  await save(ctx.db, note.id, { xml: built.xml, accessKey: built.key, qrCodeUrl: built.qrCode });
  const result = await transmit(ctx, settings, built.xml, built.key);
  const done = await applySent(ctx, note, result, built.xml, built.key);
  if (done && result.kind === 'authorised') await printDanfe(ctx, actor, note.id).catch(() => undefined);
  return done;
}

// ---------------------------------------------------------------------------------------------
// Cancel and voiding

const sefazSilent = () => unavailable('A SEFAZ não respondeu. Tente de novo em alguns minutos.');

export async function cancelNote(
  ctx: AppContext,
  actor: Actor,
  id: number,
  reason: string,
): Promise<FiscalNote> {
  const note = await noteRow(ctx.db, actor, id);
  if (note.status === 'canceled') return toNote(note);
  if (note.status !== 'authorised' || !note.protocol) throw new AppError(422, FISCAL_MESSAGES.notAuthorised);
  const settings = (await settingsRow(ctx.db, actor.clientId)) as SettingsRow;
  const rules = stateRules(settings.uf as Uf);
  if (note.authorisedAt && Date.parse(note.authorisedAt) + rules.cancelHours * 3_600_000 < Date.now())
    throw new AppError(422, FISCAL_MESSAGES.cancelDeadline);
  const [client] = await ctx.db
    .select({ timeZone: clients.timeZone })
    .from(clients)
    .where(eq(clients.id, actor.clientId));
  const tpAmb = tpAmbOf(settings.environment as FiscalEnvironment);
  const unsigned = cancelEvent({
    uf: settings.uf as Uf,
    tpAmb,
    cnpj: settings.cnpj,
    key: note.accessKey,
    at: nfeDateTime(new Date(), client?.timeZone ?? 'America/Sao_Paulo'),
    protocol: note.protocol,
    reason,
  });
  const { a1 } = openA1(ctx, settings);
  const signed = signXml(unsigned, 'infEvento', a1).xml;
  const body = envEvento(1, signed);
  const issue = await validateSchema(body, 'envEventoCancNFe_v1.00.xsd');
  if (issue)
    throw new AppError(422, `Erro de schema no elemento ${issue.element}: o cancelamento não foi enviado.`);
  const answer = await callSefaz(ctx.config, target(ctx, settings), 'NFeRecepcaoEvento4', body);
  if (!answer.ok) throw sefazSilent();
  const ret = element(answer.body, 'retEvento') ?? answer.body;
  const cStat = tag(ret, 'cStat') ?? '';
  if (cStat !== '135' && cStat !== '155')
    throw new AppError(422, `A SEFAZ recusou o cancelamento: ${tag(ret, 'xMotivo') ?? cStat}`);
  await save(ctx.db, note.id, {
    status: 'canceled',
    cancelXml: `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${signed}${ret}</procEventoNFe>`,
    cancelProtocol: tag(ret, 'nProt'),
    statusCode: cStat,
    statusText: tag(ret, 'xMotivo'),
  });
  ctx.changed(actor.clientId, 'fiscal', note.id);
  return toNote(await noteRow(ctx.db, actor, id));
}

export async function voidNumbers(
  ctx: AppContext,
  actor: Actor,
  input: { series: number; from: number; to: number; reason: string },
) {
  const settings = await settingsRow(ctx.db, actor.clientId);
  if (!settings?.certificateSealed) throw new AppError(422, FISCAL_MESSAGES.noCertificate);
  const answer = await sendVoid(ctx, settings, input);
  if (answer.kind === 'silent') throw sefazSilent();
  if (answer.kind === 'refused')
    throw new AppError(422, `A SEFAZ recusou a inutilização: ${answer.statusText}`);
  return { statusCode: answer.statusCode, statusText: answer.statusText, protocol: answer.protocol };
}

type VoidAnswer =
  | { kind: 'voided'; statusCode: string; statusText: string; protocol: string | null }
  | { kind: 'refused'; statusCode: string; statusText: string }
  | { kind: 'silent' };

/**
 * Sends one inutilização and records SEFAZ's answer. `record: 'refusals'` (the sweep) also keeps a
 * refusal in fiscal_voids, so the same range is never sent again by itself (consumo indevido).
 */
async function sendVoid(
  ctx: AppContext,
  settings: SettingsRow,
  input: { series: number; from: number; to: number; reason: string },
  record: 'voided' | 'refusals' = 'voided',
): Promise<VoidAnswer> {
  const clientId = settings.clientId;
  const [used] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(fiscalNotes)
    .where(
      and(
        eq(fiscalNotes.clientId, clientId),
        eq(fiscalNotes.series, input.series),
        sql`${fiscalNotes.number} between ${input.from} and ${input.to}`,
        sql`${fiscalNotes.status} in ('authorised', 'canceled', 'contingency', 'queued', 'pending')`,
      ),
    );
  if (Number(used?.n ?? 0) > 0)
    throw new AppError(
      422,
      'Há números da faixa em notas emitidas ou em envio: só números não usados podem ser inutilizados.',
    );
  const unsigned = inutNFe({
    uf: settings.uf as Uf,
    tpAmb: tpAmbOf(settings.environment as FiscalEnvironment),
    year: new Date().getFullYear(),
    cnpj: settings.cnpj,
    series: input.series,
    from: input.from,
    to: input.to,
    reason: input.reason,
  });
  const { a1 } = openA1(ctx, settings);
  const signed = signXml(unsigned, 'infInut', a1).xml;
  const issue = await validateSchema(signed, 'inutNFe_v4.00.xsd');
  if (issue)
    throw new AppError(422, `Erro de schema no elemento ${issue.element}: a inutilização não foi enviada.`);
  const answer = await callSefaz(ctx.config, target(ctx, settings), 'NFeInutilizacao4', signed);
  if (!answer.ok) return { kind: 'silent' };
  const statusCode = tag(answer.body, 'cStat') ?? '';
  const statusText = tag(answer.body, 'xMotivo') ?? '';
  const protocol = tag(answer.body, 'nProt');
  const voided = statusCode === '102';
  if (!voided && record === 'voided') return { kind: 'refused', statusCode, statusText };
  await ctx.db.transaction(async (tx) => {
    await tx.insert(fiscalVoids).values({
      clientId,
      series: input.series,
      fromNumber: input.from,
      toNumber: input.to,
      reason: input.reason,
      statusCode,
      statusText,
      protocol,
      xml: `${signed}${answer.body}`,
    });
    if (!voided) return;
    await tx
      .update(fiscalNotes)
      .set({ status: 'voided' })
      .where(
        and(
          eq(fiscalNotes.clientId, clientId),
          eq(fiscalNotes.series, input.series),
          eq(fiscalNotes.status, 'rejected'),
          sql`${fiscalNotes.number} between ${input.from} and ${input.to}`,
        ),
      );
  });
  return voided
    ? { kind: 'voided', statusCode, statusText, protocol }
    : { kind: 'refused', statusCode, statusText };
}

// ---------------------------------------------------------------------------------------------
// The sweep: nothing lost

/** The reason sent with an automatic inutilização (15 to 255 characters, no accents: TString). */
export const AUTO_VOID_REASON = 'Numero nao utilizado: nota nao autorizada pela SEFAZ';
/** Rejections after which a number is not voided: SEFAZ holds it under another key (539) or already (204). */
const NUMBER_HELD = ['539', '204'];

/** Consecutive numbers as ranges: [3, 4, 5, 9] -> [[3, 5], [9, 9]]. */
export function numberRanges(numbers: number[]): [number, number][] {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const n of sorted) {
    const last = ranges.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else ranges.push([n, n]);
  }
  return ranges;
}

/**
 * The fiscal sweep job (issue 32, "no number is reused or lost"):
 * 1. a finished sale of a shop with NFC-e on (since it was switched on) that has no note two minutes
 *    after its commit - the process died between the sale's commit and the note's insert, or a
 *    replayed checkout skipped the follow-up - gets its note now, once (the note's unique sale_id);
 * 2. numbers that were allocated and will never be authorised - a rejected note (except 539/204,
 *    whose number SEFAZ holds), or a gap inside the numbers a series used (the next number raised by
 *    hand) - are voided by inutilização, one request per run of consecutive numbers. A range SEFAZ
 *    refuses is kept with its answer and rings the bell once, never sent again by itself.
 */
export async function sweepFiscal(
  ctx: AppContext,
  limit = 50,
): Promise<{ issued: number; voided: number; refused: number; waiting: number }> {
  let issued = 0;
  let voided = 0;
  let refused = 0;
  let waiting = 0;
  const missing = (await ctx.db.execute(sql`
    select s.id, s.client_id from sales s
    join fiscal_settings f on f.client_id = s.client_id and f.enabled and f.enabled_at is not null
    where s.status = 'finished'
      and s.created_at >= f.enabled_at
      and s.created_at > now() - interval '7 days'
      and s.created_at < now() - interval '2 minutes'
      and not exists (select 1 from fiscal_notes n where n.sale_id = s.id)
    order by s.id
    limit ${limit}`)) as unknown as { rows: { id: number; client_id: number }[] };
  for (const sale of missing.rows) {
    try {
      const actor = await adminOf(ctx.db, Number(sale.client_id));
      const note = await issueForSale(ctx, actor, Number(sale.id));
      if (note) {
        issued++;
        ctx.changed(actor.clientId, 'fiscal', note.id);
      }
    } catch {
      waiting++; // the follow-up won the race (unique sale_id) or the shop changed: next run.
    }
  }

  // Numbers to void, per shop and series: rejected notes, then gaps between used numbers.
  const toVoid = (await ctx.db.execute(sql`
    with used as (
      select n.client_id, n.series, n.number, n.status, n.status_code,
        lead(n.number) over (partition by n.client_id, n.series order by n.number) as next
      from fiscal_notes n
      join fiscal_settings f on f.client_id = n.client_id and f.certificate_sealed <> ''
      where n.model = 65 and n.created_at > now() - interval '30 days'
    ), wanted as (
      select client_id, series, number from used
      where status = 'rejected' and coalesce(status_code, '') not in (${sql.join(
        NUMBER_HELD.map((code) => sql`${code}`),
        sql`, `,
      )})
      union
      select u.client_id, u.series, g.n from used u, generate_series(u.number + 1, u.next - 1) as g(n)
      where u.next > u.number + 1 and u.next - u.number <= 1000
    )
    select w.client_id, w.series, w.number from wanted w
    where not exists (select 1 from fiscal_voids v where v.client_id = w.client_id and v.model = 65
      and v.series = w.series and w.number between v.from_number and v.to_number)
    order by w.client_id, w.series, w.number
    limit 1000`)) as unknown as { rows: { client_id: number; series: number; number: number }[] };
  const groups = new Map<string, { clientId: number; series: number; numbers: number[] }>();
  for (const row of toVoid.rows) {
    const key = `${row.client_id}:${row.series}`;
    const group = groups.get(key) ?? {
      clientId: Number(row.client_id),
      series: Number(row.series),
      numbers: [],
    };
    group.numbers.push(Number(row.number));
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const settings = await settingsRow(ctx.db, group.clientId);
    if (!settings?.certificateSealed) continue;
    for (const [from, to] of numberRanges(group.numbers)) {
      let answer: VoidAnswer;
      try {
        answer = await sendVoid(
          ctx,
          settings,
          { series: group.series, from, to, reason: AUTO_VOID_REASON },
          'refusals',
        );
      } catch {
        waiting++;
        continue;
      }
      const range = from === to ? `nº ${from}` : `nº ${from} a ${to}`;
      if (answer.kind === 'silent') waiting++;
      else if (answer.kind === 'voided') {
        voided += to - from + 1;
        ctx.changed(group.clientId, 'fiscal');
      } else {
        refused++;
        ctx.notify(group.clientId, {
          message: `A SEFAZ recusou a inutilização automática da NFC-e ${range} (série ${group.series}): ${answer.statusText}. Confira na página Fiscal.`,
          alertColor: 'error',
        });
      }
    }
  }
  return { issued, voided, refused, waiting };
}

/**
 * The follow-up of a canceled sale: its authorised note gets the cancel event (110111) with the sale's
 * reason (prefixed so it reaches the 15 characters SEFAZ asks). A note not authorised yet, or SEFAZ
 * refusing, rings the bell: the manager cancels it on the sale's detail once it can be.
 */
export async function cancelForSale(ctx: AppContext, actor: Actor, saleId: number, reason: string) {
  const [note] = await ctx.db
    .select()
    .from(fiscalNotes)
    .where(and(eq(fiscalNotes.clientId, actor.clientId), eq(fiscalNotes.saleId, saleId)));
  if (!note || note.status === 'canceled' || note.status === 'rejected' || note.status === 'voided') return;
  const text = reason.trim().length >= 15 ? reason.trim() : `Venda cancelada: ${reason.trim()}`;
  try {
    if (note.status !== 'authorised') throw new AppError(422, FISCAL_MESSAGES.notAuthorised);
    await cancelNote(ctx, actor, note.id, text);
  } catch (error) {
    ctx.notify(actor.clientId, {
      message: `A venda foi cancelada, mas a NFC-e nº ${note.number} não: ${(error as Error).message} Cancele-a no detalhe da venda.`,
      alertColor: 'warning',
    });
  }
}

/** The checkout follow-ups still running (tests wait for them: "the follow-up has run"). */
const followUps = new Set<Promise<void>>();

/** For the checkout follow-up: runs `issueForSale` without the caller waiting, errors logged. */
export function issueInBackground(ctx: AppContext, actor: Actor, saleId: number): void {
  const run: Promise<void> = issueForSale(ctx, actor, saleId)
    .then((note) => {
      if (note) ctx.changed(actor.clientId, 'fiscal', note.id);
    })
    .catch(() => undefined)
    .finally(() => followUps.delete(run));
  followUps.add(run);
}

/** Resolves when every checkout follow-up started so far has ended. */
export async function fiscalFollowUpsSettled(): Promise<void> {
  await Promise.all([...followUps]);
}

export type { SefazService };
