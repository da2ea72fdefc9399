import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_CLASS_TRIB,
  type IbsCbsItem,
  ibsCbsItem,
  ibsCbsMissingRate,
  ibsCbsRatesOf,
  ibsCbsRateText,
  isCardTPag,
  type ProductFiscal,
  type ShopIbsCbsRates,
  tPagOf,
  UF_CODES,
  type Uf,
} from '@balcao/core/fiscal';
import type { PaymentMethod } from '@balcao/core/status';
import { XmlDocument, XmlValidateError, XsdValidator, xmlRegisterInputProvider } from 'libxml2-wasm';
import { SignedXml } from 'xml-crypto';

/**
 * The NF-e 4.00 layout for model 65 (MOC 7.0 with NT 2025.002-RTC: the schema package PL_010 v1.30,
 * copied from nfephp-org/sped-nfe schemes/PL_010_V1.30 at d9f6bae), the XMLDSig signature SEFAZ requires (enveloped, C14N, RSA-SHA1, SHA-1 digest,
 * reference to the Id of infNFe / infEvento / infInut) and the offline XSD check with libxml2-wasm
 * (libxml2 compiled to WebAssembly: no native build, the same engine as Debian's xmllint; the schema
 * compiled once and reused, see validateSchema).
 */

export const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';
const SCHEMES = join(dirname(fileURLToPath(import.meta.url)), 'schemes', 'PL_010_V1.30');

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** A TString: trimmed, single spaces, no control characters, cut to `max`. */
const str = (text: string, max = 60) =>
  escapeXml(
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what TString forbids
      .replace(/[\u0000-\u001f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, max),
  );
const money = (cents: number) => (cents / 100).toFixed(2);
const el = (name: string, value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '' : `<${name}>${value}</${name}>`;

export type NoteIssuer = {
  cnpj: string;
  ie: string;
  legalName: string;
  tradeName: string | null;
  crt: string;
  uf: Uf;
  cityCode: string;
  cityName: string;
  street: string;
  streetNumber: string;
  district: string;
  zipCode: string;
};

export type NoteItem = {
  code: string;
  description: string;
  barcode: string | null;
  quantity: number;
  unitPriceCents: number;
  grossCents: number;
  discountCents: number;
  otherCents: number;
  fiscal: ProductFiscal;
};

export type NoteInput = {
  issuer: NoteIssuer;
  accessKey: string;
  code: number;
  series: number;
  number: number;
  /** dhEmi: the shop's local time with its offset (AAAA-MM-DDThh:mm:ssTZD). */
  issuedAt: string;
  tpEmis: 1 | 4 | 9;
  tpAmb: 1 | 2;
  contingency?: { at: string; reason: string };
  consumerDocument: string | null;
  items: NoteItem[];
  payments: { method: PaymentMethod; amountCents: number }[];
  changeCents: number;
  totalCents: number;
  additionalInfo?: string;
  /** The IBS/CBS groups (NT 2025.002) per item and in the totals; absent in drafts made before. */
  ibsCbs?: boolean;
  /** The rates the shop entered where LC 214/2025 leaves them to be set (by year), when the draft was made. */
  ibsCbsRates?: ShopIbsCbsRates;
};

/** The text SEFAZ requires as the first item's description in homologação (rejection 373). */
export const HOMOLOGATION_ITEM = 'NOTA FISCAL EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';

function icms(crt: string, f: ProductFiscal): string {
  if (crt === '3') {
    // Regime normal: not taxed at the counter here (CST 41); other CSTs are left to the accountant's setup.
    return `<ICMS><ICMS40><orig>${f.origin}</orig><CST>41</CST></ICMS40></ICMS>`;
  }
  if (['102', '103', '300', '400'].includes(f.csosn))
    return `<ICMS><ICMSSN102><orig>${f.origin}</orig><CSOSN>${f.csosn}</CSOSN></ICMSSN102></ICMS>`;
  if (f.csosn === '500')
    return `<ICMS><ICMSSN500><orig>${f.origin}</orig><CSOSN>500</CSOSN></ICMSSN500></ICMS>`;
  return `<ICMS><ICMSSN900><orig>${f.origin}</orig><CSOSN>900</CSOSN></ICMSSN900></ICMS>`;
}

/** The item's IBSCBS group (NT 2025.002, TTribNFe): CST, cClassTrib and, for CST 000/200, gIBSCBS. */
function ibsCbsXml(t: IbsCbsItem): string {
  const g = t.group;
  if (!g) return `<IBSCBS><CST>${t.cst}</CST><cClassTrib>${t.cClassTrib}</cClassTrib></IBSCBS>`;
  const part = (rateTag: string, valueTag: string, p: { rate: number; effective: number; cents: number }) =>
    `${el(rateTag, ibsCbsRateText(p.rate))}${
      g.reduction > 0
        ? `<gRed>${el('pRedAliq', g.reduction.toFixed(4))}${el('pAliqEfet', ibsCbsRateText(p.effective))}</gRed>`
        : ''
    }${el(valueTag, money(p.cents))}`;
  return `<IBSCBS><CST>${t.cst}</CST><cClassTrib>${t.cClassTrib}</cClassTrib><gIBSCBS>${el('vBC', money(g.baseCents))}<gIBSUF>${part('pIBSUF', 'vIBSUF', g.ibsUf)}</gIBSUF><gIBSMun>${part('pIBSMun', 'vIBSMun', g.ibsMun)}</gIBSMun>${el('vIBS', money(g.ibsCents))}<gCBS>${part('pCBS', 'vCBS', g.cbs)}</gCBS></gIBSCBS></IBSCBS>`;
}

/** IBSCBSTot (TIBSCBSMonoTot): the items' sums; no deferral, return or presumed credit at a counter. */
function ibsCbsTotXml(items: IbsCbsItem[]): string {
  const sum = (pick: (g: NonNullable<IbsCbsItem['group']>) => number) =>
    money(items.reduce((s, t) => s + (t.group ? pick(t.group) : 0), 0));
  const zero = '<vDif>0.00</vDif><vDevTrib>0.00</vDevTrib>';
  const credit = '<vCredPres>0.00</vCredPres><vCredPresCondSus>0.00</vCredPresCondSus>';
  return `<IBSCBSTot>${el(
    'vBCIBSCBS',
    sum((g) => g.baseCents),
  )}<gIBS><gIBSUF>${zero}${el(
    'vIBSUF',
    sum((g) => g.ibsUf.cents),
  )}</gIBSUF><gIBSMun>${zero}${el(
    'vIBSMun',
    sum((g) => g.ibsMun.cents),
  )}</gIBSMun>${el(
    'vIBS',
    sum((g) => g.ibsCents),
  )}${credit}</gIBS><gCBS>${zero}${el(
    'vCBS',
    sum((g) => g.cbs.cents),
  )}${credit}</gCBS></IBSCBSTot>`;
}

/** The IBS/CBS of each item of a note (null when the note carries no IBS/CBS groups). */
export function ibsCbsOfNote(
  n: Pick<NoteInput, 'items' | 'ibsCbs' | 'issuedAt' | 'ibsCbsRates'>,
): IbsCbsItem[] | null {
  if (!n.ibsCbs) return null;
  // The rates of the note's issue year (LC 214/2025's transition): a missing one is stopped before (missingIbsCbsRate).
  const { rates, missing } = ibsCbsRatesOf(Number(n.issuedAt.slice(0, 4)), n.ibsCbsRates);
  if (!rates) throw new Error(`IBS/CBS rates missing: ${missing.join(', ')}`);
  return n.items.map((item) =>
    ibsCbsItem(
      item.grossCents - item.discountCents + item.otherCents,
      item.fiscal.cClassTrib ?? DEFAULT_CLASS_TRIB,
      rates,
    ),
  );
}

/** The element and the Portuguese text of the first IBS/CBS rate a note of `issuedAt`'s year still lacks. */
export function missingIbsCbsRate(
  n: Pick<NoteInput, 'ibsCbs' | 'issuedAt' | 'ibsCbsRates'>,
): { element: string; message: string } | null {
  if (!n.ibsCbs) return null;
  const year = Number(n.issuedAt.slice(0, 4));
  const { missing } = ibsCbsRatesOf(year, n.ibsCbsRates);
  if (!missing) return null;
  const element = { cbs: 'pCBS', ibsUf: 'pIBSUF', ibsMun: 'pIBSMun' }[missing[0]];
  return { element, message: ibsCbsMissingRate(year, missing[0]) };
}

/** The unsigned NFe (model 65). */
export function buildNfe(n: NoteInput): string {
  const i = n.issuer;
  const cDV = n.accessKey.slice(43);
  const ide = [
    el('cUF', UF_CODES[i.uf]),
    el('cNF', String(n.code).padStart(8, '0')),
    el('natOp', 'VENDA'),
    el('mod', 65),
    el('serie', n.series),
    el('nNF', n.number),
    el('dhEmi', n.issuedAt),
    el('tpNF', 1),
    el('idDest', 1),
    el('cMunFG', i.cityCode),
    el('tpImp', 4),
    el('tpEmis', n.tpEmis),
    el('cDV', cDV),
    el('tpAmb', n.tpAmb),
    el('finNFe', 1),
    el('indFinal', 1),
    el('indPres', 1),
    el('indIntermed', 0),
    el('procEmi', 0),
    el('verProc', 'Balcao 1.0'),
    n.contingency ? el('dhCont', n.contingency.at) + el('xJust', str(n.contingency.reason, 256)) : '',
  ].join('');
  const emit = [
    el('CNPJ', i.cnpj),
    el('xNome', str(i.legalName)),
    i.tradeName ? el('xFant', str(i.tradeName)) : '',
    '<enderEmit>',
    el('xLgr', str(i.street)),
    el('nro', str(i.streetNumber)),
    el('xBairro', str(i.district)),
    el('cMun', i.cityCode),
    el('xMun', str(i.cityName)),
    el('UF', i.uf),
    el('CEP', i.zipCode),
    el('cPais', 1058),
    el('xPais', 'BRASIL'),
    '</enderEmit>',
    el('IE', i.ie),
    el('CRT', i.crt === '4' ? '4' : i.crt),
  ].join('');
  const dest = n.consumerDocument
    ? `<dest>${n.consumerDocument.length === 11 ? el('CPF', n.consumerDocument) : el('CNPJ', n.consumerDocument)}${el('indIEDest', 9)}</dest>`
    : '';
  const qty = (q: number) => q.toFixed(4);
  const unit = (cents: number) => (cents / 100).toFixed(10);
  const reform = ibsCbsOfNote(n);
  const det = n.items
    .map((item, index) => {
      const f = item.fiscal;
      const ean = item.barcode && /^(\d{8}|\d{12,14})$/.test(item.barcode) ? item.barcode : 'SEM GTIN';
      const name = index === 0 && n.tpAmb === 2 ? HOMOLOGATION_ITEM : str(item.description, 120);
      const prod = [
        el('cProd', str(item.code || String(index + 1))),
        el('cEAN', ean),
        el('xProd', name),
        el('NCM', f.ncm),
        f.cest ? el('CEST', f.cest) : '',
        el('CFOP', f.cfop),
        el('uCom', str(f.unit, 6)),
        el('qCom', qty(item.quantity)),
        el('vUnCom', unit(item.unitPriceCents)),
        el('vProd', money(item.grossCents)),
        el('cEANTrib', ean),
        el('uTrib', str(f.unit, 6)),
        el('qTrib', qty(item.quantity)),
        el('vUnTrib', unit(item.unitPriceCents)),
        item.discountCents > 0 ? el('vDesc', money(item.discountCents)) : '',
        item.otherCents > 0 ? el('vOutro', money(item.otherCents)) : '',
        el('indTot', 1),
      ].join('');
      const ibsCbs = reform ? ibsCbsXml(reform[index]) : '';
      return `<det nItem="${index + 1}"><prod>${prod}</prod><imposto>${icms(i.crt, f)}${ibsCbs}</imposto></det>`;
    })
    .join('');
  const sum = (pick: (item: NoteItem) => number) => n.items.reduce((s, item) => s + pick(item), 0);
  const zero = '0.00';
  const total = [
    el('vBC', zero),
    el('vICMS', zero),
    el('vICMSDeson', zero),
    el('vFCP', zero),
    el('vBCST', zero),
    el('vST', zero),
    el('vFCPST', zero),
    el('vFCPSTRet', zero),
    el('vProd', money(sum((x) => x.grossCents))),
    el('vFrete', zero),
    el('vSeg', zero),
    el('vDesc', money(sum((x) => x.discountCents))),
    el('vII', zero),
    el('vIPI', zero),
    el('vIPIDevol', zero),
    el('vPIS', zero),
    el('vCOFINS', zero),
    el('vOutro', money(sum((x) => x.otherCents))),
    el('vNF', money(n.totalCents)),
  ].join('');
  const payments = n.payments.length > 0 ? n.payments : [];
  const detPag =
    payments.length === 0
      ? '<detPag><tPag>90</tPag><vPag>0.00</vPag></detPag>'
      : payments
          .map((p) => {
            const t = tPagOf(p.method);
            return `<detPag>${el('tPag', t.tPag)}${t.xPag ? el('xPag', str(t.xPag)) : ''}${el(
              'vPag',
              money(p.amountCents),
            )}${isCardTPag(t.tPag) ? '<card><tpIntegra>2</tpIntegra></card>' : ''}</detPag>`;
          })
          .join('');
  const pag = `<pag>${detPag}${n.changeCents > 0 ? el('vTroco', money(n.changeCents)) : ''}</pag>`;
  const infAdic = n.additionalInfo ? `<infAdic>${el('infCpl', str(n.additionalInfo, 5000))}</infAdic>` : '';
  return `<NFe xmlns="${NFE_NS}"><infNFe versao="4.00" Id="NFe${n.accessKey}"><ide>${ide}</ide><emit>${emit}</emit>${dest}${det}<total><ICMSTot>${total}</ICMSTot>${reform ? ibsCbsTotXml(reform) : ''}</total><transp><modFrete>9</modFrete></transp>${pag}${infAdic}</infNFe></NFe>`;
}

export type Signer = { keyPem: string; certPem: string };

const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';

/**
 * Signs `xml` (enveloped, C14N, RSA-SHA1) over the element `tag` (its Id attribute), the Signature
 * placed right after it, as the SEFAZ schemas expect. Returns the signed XML and the DigestValue
 * (the offline QR code carries it).
 */
export function signXml(xml: string, tag: string, signer: Signer): { xml: string; digestValue: string } {
  const sig = new SignedXml({
    privateKey: signer.keyPem,
    publicCert: signer.certPem,
    signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    canonicalizationAlgorithm: C14N,
  });
  sig.addReference({
    xpath: `//*[local-name(.)='${tag}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', C14N],
    digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
  });
  sig.computeSignature(xml, { location: { reference: `//*[local-name(.)='${tag}']`, action: 'after' } });
  const signed = sig.getSignedXml();
  const digestValue = /<DigestValue>([^<]+)<\/DigestValue>/.exec(signed)?.[1] ?? '';
  return { xml: signed, digestValue };
}

/**
 * Checks an enveloped signature of `xml` against the certificate it carries (KeyInfo) and, when
 * given, the PEM that must have signed it. The fake SEFAZ and the tests use it.
 */
export function verifySignature(xml: string, certPem?: string): boolean {
  const certBase64 = /<X509Certificate>([^<]+)<\/X509Certificate>/.exec(xml)?.[1];
  if (!certBase64) return false;
  const pem =
    certPem ??
    `-----BEGIN CERTIFICATE-----\n${certBase64.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`;
  const signature = /<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">[\s\S]*?<\/Signature>/.exec(
    xml,
  )?.[0];
  if (!signature) return false;
  const sig = new SignedXml({ publicCert: pem, getCertFromKeyInfo: () => null });
  sig.loadSignature(signature);
  try {
    return sig.checkSignature(xml);
  } catch {
    return false;
  }
}

/** Adds infNFeSupl (QR code and key query URL) between infNFe and Signature. */
export function withSupplement(signedNfe: string, qrCode: string, urlChave: string): string {
  const supl = `<infNFeSupl><qrCode>${escapeXml(qrCode)}</qrCode><urlChave>${escapeXml(urlChave)}</urlChave></infNFeSupl>`;
  return signedNfe.replace('</infNFe><Signature', `</infNFe>${supl}<Signature`);
}

// ---------------------------------------------------------------------------------------------
// XSD validation

/**
 * The schemas are compiled once per root (libxml2's xmlSchemaParse, ~30 ms for nfe_v4.00.xsd) and the
 * compiled validator is reused for every document (~2 ms). Their xs:include / xs:import are served from
 * memory by an input provider that answers only this scheme: a document being validated can never make
 * libxml2 read a file or the network.
 */
const XSD_SCHEME = 'balcao-xsd:///';
let schemaFiles: Map<string, Uint8Array> | null = null;
function schemes() {
  if (schemaFiles) return schemaFiles;
  const files = new Map<string, Uint8Array>();
  for (const fileName of readdirSync(SCHEMES).filter((f) => f.endsWith('.xsd')))
    files.set(fileName, readFileSync(join(SCHEMES, fileName)));
  const open = new Map<number, { data: Uint8Array; at: number }>();
  let nextFd = 1;
  const nameOf = (url: string) => (url.startsWith(XSD_SCHEME) ? url.slice(XSD_SCHEME.length) : null);
  xmlRegisterInputProvider({
    match: (url) => {
      const name = nameOf(url);
      return name !== null && files.has(name);
    },
    open: (url) => {
      const data = files.get(nameOf(url) ?? '');
      if (!data) return undefined;
      const fd = nextFd++;
      open.set(fd, { data, at: 0 });
      return fd;
    },
    read: (fd, buf) => {
      const file = open.get(fd);
      if (!file) return -1;
      const chunk = file.data.subarray(file.at, file.at + buf.byteLength);
      buf.set(chunk);
      file.at += chunk.byteLength;
      return chunk.byteLength;
    },
    close: (fd) => open.delete(fd),
  });
  schemaFiles = files;
  return files;
}

const validators = new Map<string, XsdValidator>();
function validatorOf(rootXsd: string): XsdValidator {
  const known = validators.get(rootXsd);
  if (known) return known;
  const files = schemes();
  const root = files.get(rootXsd);
  if (!root) throw new Error(`unknown schema ${rootXsd}`);
  const xsd = XmlDocument.fromBuffer(root, { url: `${XSD_SCHEME}${rootXsd}` });
  try {
    const validator = XsdValidator.fromDoc(xsd);
    validators.set(rootXsd, validator);
    return validator;
  } finally {
    xsd.dispose();
  }
}

export type SchemaIssue = { element: string; message: string };

const issueOf = (message: string): SchemaIssue => ({
  element: /Element '(?:\{[^}]*\})?([^']+)'/.exec(message)?.[1] ?? 'documento',
  message: message.trim(),
});

/**
 * Validates `xml` against the PL_010 schema `rootXsd` (nfe_v4.00.xsd, enviNFe_v4.00.xsd,
 * envEventoCancNFe_v1.00.xsd, inutNFe_v4.00.xsd, ...). Null when valid, else the first error with the
 * element it names. Synchronous underneath (libxml2 in WebAssembly on this thread, ~2 ms a note).
 */
export async function validateSchema(xml: string, rootXsd: string): Promise<SchemaIssue | null> {
  const validator = validatorOf(rootXsd);
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (error) {
    return issueOf(error instanceof Error ? error.message : 'XML mal formado');
  }
  try {
    validator.validate(doc);
    return null;
  } catch (error) {
    if (error instanceof XmlValidateError) return issueOf(error.details[0]?.message ?? error.message);
    throw error;
  } finally {
    doc.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// Messages and SOAP

export const SOAP_NS = 'http://www.w3.org/2003/05/soap-envelope';

/** The SOAP 1.2 envelope of a NF-e 4.00 web service (`service`: NFeAutorizacao4, ...). */
export const soapEnvelope = (service: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soap12:Envelope xmlns:soap12="${SOAP_NS}"><soap12:Body><nfeDadosMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/${service}">${body}</nfeDadosMsg></soap12:Body></soap12:Envelope>`;

/** What a SOAP envelope carries inside nfeDadosMsg / nfeResultMsg. */
export function soapBody(envelope: string): string {
  const m = /<(?:\w+:)?nfe(?:Dados|Result)Msg[^>]*>([\s\S]*)<\/(?:\w+:)?nfe(?:Dados|Result)Msg>/.exec(
    envelope,
  );
  return m ? m[1] : '';
}

export const enviNFe = (lot: number, signedNfe: string) =>
  `<enviNFe xmlns="${NFE_NS}" versao="4.00"><idLote>${lot}</idLote><indSinc>1</indSinc>${signedNfe.replace(/^<\?xml[^>]*>/, '')}</enviNFe>`;

export const consSitNFe = (tpAmb: number, key: string) =>
  `<consSitNFe xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><xServ>CONSULTAR</xServ><chNFe>${key}</chNFe></consSitNFe>`;

export const consStatServ = (tpAmb: number, uf: Uf) =>
  `<consStatServ xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><cUF>${UF_CODES[uf]}</cUF><xServ>STATUS</xServ></consStatServ>`;

/** The unsigned cancel event (110111); sign over infEvento then wrap with envEventoOf. */
export function cancelEvent(o: {
  uf: Uf;
  tpAmb: number;
  cnpj: string;
  key: string;
  at: string;
  protocol: string;
  reason: string;
}): string {
  return `<evento xmlns="${NFE_NS}" versao="1.00"><infEvento Id="ID110111${o.key}01"><cOrgao>${UF_CODES[o.uf]}</cOrgao><tpAmb>${o.tpAmb}</tpAmb><CNPJ>${o.cnpj}</CNPJ><chNFe>${o.key}</chNFe><dhEvento>${o.at}</dhEvento><tpEvento>110111</tpEvento><nSeqEvento>1</nSeqEvento><verEvento>1.00</verEvento><detEvento versao="1.00"><descEvento>Cancelamento</descEvento><nProt>${o.protocol}</nProt><xJust>${str(o.reason, 255)}</xJust></detEvento></infEvento></evento>`;
}

/**
 * The unsigned EPEC of an NFC-e (event 110140, São Paulo's RecepcaoEPEC): the note's key, issue time,
 * issuer's IE, consumer (when identified), vNF and vICMS, as nfephp-org/sped-nfe's TraitEPECNfce builds
 * it and PL_010's eventoEPEC_v1.00.xsd checks it. Sign over infEvento, then wrap with envEvento.
 */
export function epecEvent(o: {
  uf: Uf;
  tpAmb: number;
  cnpj: string;
  key: string;
  at: string;
  issuedAt: string;
  ie: string;
  consumerDocument: string | null;
  totalCents: number;
}): string {
  const dest = o.consumerDocument
    ? `<dest><UF>${o.uf}</UF>${o.consumerDocument.length === 11 ? el('CPF', o.consumerDocument) : el('CNPJ', o.consumerDocument)}</dest>`
    : '';
  return `<evento xmlns="${NFE_NS}" versao="1.00"><infEvento Id="ID110140${o.key}01"><cOrgao>${UF_CODES[o.uf]}</cOrgao><tpAmb>${o.tpAmb}</tpAmb><CNPJ>${o.cnpj}</CNPJ><chNFe>${o.key}</chNFe><dhEvento>${o.at}</dhEvento><tpEvento>110140</tpEvento><nSeqEvento>1</nSeqEvento><verEvento>1.00</verEvento><detEvento versao="1.00"><descEvento>EPEC</descEvento><cOrgaoAutor>${UF_CODES[o.uf]}</cOrgaoAutor><tpAutor>1</tpAutor><verAplic>Balcao 1.0</verAplic><dhEmi>${o.issuedAt}</dhEmi><tpNF>1</tpNF><IE>${o.ie}</IE>${dest}<vNF>${money(o.totalCents)}</vNF><vICMS>0.00</vICMS></detEvento></infEvento></evento>`;
}

export const envEvento = (lot: number, signedEvent: string) =>
  `<envEvento xmlns="${NFE_NS}" versao="1.00"><idLote>${lot}</idLote>${signedEvent.replace(/^<\?xml[^>]*>/, '')}</envEvento>`;

/** The unsigned number voiding (inutilização); sign over infInut. */
export function inutNFe(o: {
  uf: Uf;
  tpAmb: number;
  year: number;
  cnpj: string;
  series: number;
  from: number;
  to: number;
  reason: string;
}): string {
  const yy = String(o.year % 100).padStart(2, '0');
  const id = `ID${UF_CODES[o.uf]}${yy}${o.cnpj}65${String(o.series).padStart(3, '0')}${String(o.from).padStart(9, '0')}${String(o.to).padStart(9, '0')}`;
  return `<inutNFe xmlns="${NFE_NS}" versao="4.00"><infInut Id="${id}"><tpAmb>${o.tpAmb}</tpAmb><xServ>INUTILIZAR</xServ><cUF>${UF_CODES[o.uf]}</cUF><ano>${yy}</ano><CNPJ>${o.cnpj}</CNPJ><mod>65</mod><serie>${o.series}</serie><nNFIni>${o.from}</nNFIni><nNFFin>${o.to}</nNFFin><xJust>${str(o.reason, 255)}</xJust></infInut></inutNFe>`;
}

/** The text of the first `<tag>` (namespace prefixes ignored). */
export function tag(xml: string, name: string): string | null {
  const m = new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([^<]*)</(?:\\w+:)?${name}>`).exec(xml);
  return m ? m[1] : null;
}

/** The first whole `<name ...>...</name>` element. */
export function element(xml: string, name: string): string | null {
  const m = new RegExp(`<${name}[\\s>][\\s\\S]*?</${name}>`).exec(xml);
  return m ? m[0] : null;
}
