import { isValidCpfOrCnpj, maskDocument, normalizeDocument } from '@balcao/core/document';
import { ACCESS_KEY_PATTERN } from '@balcao/core/fiscal';
import { formatCents } from '@balcao/core/money';
import { NFE_IMPORT_MESSAGES as M, NFE_ENTRY_MESSAGES, nfeStockFigures } from '@balcao/core/payable';
import { DOMParser, type Element, XMLSerializer } from '@xmldom/xmldom';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import { AppError, unprocessable } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { receivedNfeSchemaIssue } from '../fiscal/service.ts';
import { nfeSignatureIssue } from './nfeSignature.ts';

const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';

/** What a supplier's NF-e says about the bill: who, which note, the total and the duplicatas. */
export type NfeBill = {
  /** The 44-character access key (infNFe's Id without "NFe"; letters where the CNPJ has them). */
  key: string;
  number: string;
  /** The issue date, YYYY-MM-DD as written in dhEmi (the supplier's own clock). */
  issuedOn: string;
  issuer: { document: string; name: string; phone: string | null; email: string | null };
  /** vNF: the note's total. */
  totalCents: number;
  /** cobr/fat/vLiq when the note has a fatura: what the duplicatas must add up to. */
  invoiceCents: number | null;
  dups: { number: string; dueDate: string; amountCents: number }[];
  /** dest's CNPJ or CPF (digits), null when the note names no recipient. */
  recipient: string | null;
  /** The NFe element alone (out of the nfeProc), for the schema check. */
  nfeXml: string;
  items: NfeItem[];
};

/** One det of the note: what the supplier sold, at the delivered cost per unit. */
export type NfeItem = {
  index: number;
  code: string;
  barcode: string | null;
  description: string;
  unit: string;
  /** qCom to 4 decimals (its precision in the layout); NaN when the note's is not a positive number. */
  quantity: number;
  /** The delivered cost of one supplier unit (uCom), to the cent. */
  unitCostCents: number;
  totalCents: number;
  /** uTrib and qTrib (0 when absent): the taxable unit, the single unit when uCom is a box. */
  taxUnit: string;
  taxQuantity: number;
};

/** qCom / qTrib as numbers to 4 decimals; NaN when not a positive number. */
function quantityOf(text: string | null): number {
  const q = Number(text ?? '');
  return Number.isFinite(q) && q > 0 ? Math.round(q * 10_000) / 10_000 : Number.NaN;
}

const GTIN = /^(\d{8}|\d{12,14})$/;

function readItem(det: Element, i: number): NfeItem {
  const prod = child(det, 'prod');
  const cents = (name: string) => decimalCents(text(child(prod, name))) ?? 0;
  const quantity = quantityOf(text(child(prod, 'qCom')));
  const taxQuantity = quantityOf(text(child(prod, 'qTrib')));
  const totalCents = cents('vProd') - cents('vDesc') + cents('vFrete') + cents('vSeg') + cents('vOutro');
  const ean = text(child(prod, 'cEAN'));
  return {
    index: Number(det.getAttribute('nItem')) || i + 1,
    code: (text(child(prod, 'cProd')) ?? '').slice(0, 60),
    barcode: ean && GTIN.test(ean) ? ean : null,
    description: (text(child(prod, 'xProd')) ?? '').slice(0, 120),
    unit: (text(child(prod, 'uCom')) ?? 'UN').slice(0, 6),
    quantity,
    unitCostCents: quantity > 0 ? nfeStockFigures(quantity, totalCents, 1).unitCostCents : 0,
    totalCents,
    taxUnit: (text(child(prod, 'uTrib')) ?? '').slice(0, 6),
    taxQuantity: Number.isNaN(taxQuantity) ? 0 : taxQuantity,
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A TDec_1302 money value ("1234.5", "1234.56") as cents, without floating point; null when not one. */
export function decimalCents(text: string | null): number | null {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text?.trim() ?? '');
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

function child(parent: Element | null | undefined, name: string): Element | null {
  if (!parent) return null;
  for (let n = parent.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1 && (n as Element).localName === name) return n as Element;
  return null;
}

function children(parent: Element | null, name: string): Element[] {
  const out: Element[] = [];
  if (!parent) return out;
  for (let n = parent.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1 && (n as Element).localName === name) out.push(n as Element);
  return out;
}

const text = (el: Element | null) => el?.textContent?.trim() || null;

/**
 * Reads a supplier's NF-e 4.00 (the nfeProc they send with the goods, or a bare NFe) with @xmldom/xmldom:
 * only the NF-e namespace's elements count, by their place in the layout (NFe/infNFe/ide, emit,
 * total/ICMSTot, cobr/fat, cobr/dup). Refuses with 422 and a Portuguese reason what is not one.
 */
export function readNfeBill(xml: string): NfeBill {
  let doc: ReturnType<DOMParser['parseFromString']>;
  try {
    doc = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');
  } catch {
    throw unprocessable(M.notNfe);
  }
  const root = doc.documentElement;
  if (!root || root.namespaceURI !== NFE_NS) throw unprocessable(M.notNfe);
  const nfe = root.localName === 'NFe' ? root : root.localName === 'nfeProc' ? child(root, 'NFe') : null;
  const inf = child(nfe, 'infNFe');
  if (!inf) throw unprocessable(M.notNfe);
  // A supplier with an alphanumeric CNPJ (from July 2026) has letters in its key (NT 2025.001).
  const id = inf.getAttribute('Id') ?? '';
  const key = id.startsWith('NFe') && ACCESS_KEY_PATTERN.test(id.slice(3)) ? id.slice(3) : null;
  if (!key) throw unprocessable(M.noKey);
  const ide = child(inf, 'ide');
  const emit = child(inf, 'emit');
  const rawDoc = text(child(emit, 'CNPJ')) ?? text(child(emit, 'CPF'));
  if (!rawDoc) throw unprocessable(M.noIssuer);
  const document = normalizeDocument(rawDoc);
  if (!isValidCpfOrCnpj(document)) throw unprocessable(M.badIssuerDocument(rawDoc));
  const totalCents = decimalCents(text(child(child(child(inf, 'total'), 'ICMSTot'), 'vNF')));
  if (totalCents === null || totalCents <= 0) throw unprocessable(M.badTotal);
  const issuedOn = (text(child(ide, 'dhEmi')) ?? '').slice(0, 10);
  if (!ISO_DATE.test(issuedOn)) throw unprocessable(M.notNfe);
  const cobr = child(inf, 'cobr');
  const invoiceCents = decimalCents(text(child(child(cobr, 'fat'), 'vLiq')));
  const dups = children(cobr, 'dup').map((dup, i) => {
    const number = text(child(dup, 'nDup')) ?? String(i + 1).padStart(3, '0');
    const dueDate = text(child(dup, 'dVenc'));
    const amountCents = decimalCents(text(child(dup, 'vDup')));
    if (!dueDate || !ISO_DATE.test(dueDate) || !amountCents) throw unprocessable(M.badDup(number));
    return { number, dueDate, amountCents };
  });
  if (dups.length > 60) throw unprocessable(M.tooManyDups);
  const enderEmit = child(emit, 'enderEmit');
  const dest = child(inf, 'dest');
  const recipient = text(child(dest, 'CNPJ')) ?? text(child(dest, 'CPF'));
  return {
    key,
    number: text(child(ide, 'nNF')) ?? key.slice(25, 34).replace(/^0+/, ''),
    issuedOn,
    issuer: {
      document,
      name: (text(child(emit, 'xNome')) ?? document).slice(0, 120),
      phone: text(child(enderEmit, 'fone')),
      email: text(child(emit, 'email')),
    },
    totalCents,
    invoiceCents,
    dups,
    recipient: recipient ? normalizeDocument(recipient) : null,
    nfeXml: new XMLSerializer().serializeToString(nfe as Element),
    items: children(inf, 'det').map(readItem),
  };
}

/**
 * The bills of a note: its duplicatas, which must add up to the fatura's net value (vLiq) or, without
 * a fatura, to the note's total; a note without duplicatas is one bill of its total due on its issue date.
 */
export function billsOf(nfe: NfeBill): { number: string; dueDate: string; amountCents: number }[] {
  if (nfe.dups.length === 0) return [{ number: '1', dueDate: nfe.issuedOn, amountCents: nfe.totalCents }];
  const sum = nfe.dups.reduce((s, d) => s + d.amountCents, 0);
  const expected = nfe.invoiceCents ?? nfe.totalCents;
  if (sum !== expected) throw new AppError(422, M.dupTotal(formatCents(sum), formatCents(expected)));
  return nfe.dups;
}

/**
 * A supplier's note read and checked before anything is written (issue 34): its XMLDSig signature (an
 * amount changed after signing is refused), against the official NF-e 4.00 schema (the fiscal module's
 * compiled PL_010 XSDs), then its recipient (dest's CNPJ/CPF)
 * against the shop's own document, so another shop's note (or one to a branch) is refused with 422.
 */
export async function checkedNfe(db: Executor, actor: Actor, xml: string): Promise<NfeBill> {
  const nfe = readNfeBill(xml);
  // The signature (XMLDSig, nfeSignature.ts): an unsigned note is refused before its layout is named;
  // a broken layout is named before a signature that does not match it.
  const signature = nfeSignatureIssue(xml, nfe.issuer.document);
  if (signature === 'unsigned') throw unprocessable(NFE_ENTRY_MESSAGES.unsigned);
  const issue = await receivedNfeSchemaIssue(nfe.nfeXml);
  if (issue) throw unprocessable(NFE_ENTRY_MESSAGES.schema(issue.element));
  if (signature === 'invalid') throw unprocessable(NFE_ENTRY_MESSAGES.badSignature);
  if (signature === 'notIssuer')
    throw unprocessable(NFE_ENTRY_MESSAGES.notIssuerSignature(maskDocument(nfe.issuer.document)));
  const [shop] = await db
    .select({ document: clients.document })
    .from(clients)
    .where(eq(clients.id, actor.clientId));
  if (!nfe.recipient) throw unprocessable(NFE_ENTRY_MESSAGES.noRecipient);
  if (normalizeDocument(shop?.document ?? '') !== nfe.recipient)
    throw unprocessable(NFE_ENTRY_MESSAGES.notForShop(maskDocument(nfe.recipient)));
  return nfe;
}
