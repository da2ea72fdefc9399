import { z } from 'zod';
import { isValidCpf } from './document.ts';
import { NFCE_AUTHORISER, NFCE_WEB_SERVICES, type SefazServiceUrls } from './fiscalStates.ts';
import type { PaymentMethod } from './status.ts';
import { wallTime } from './time.ts';

/**
 * Issue 32: NFC-e (model 65). The rules without I/O: the access key and its check digit, the CNPJ
 * (numeric and the alphanumeric form of IN RFB 2.229/2024), tPag from the sale's payment methods, the
 * QR code v2 text (the hash itself is SHA-1, computed by the API with Node's crypto and handed in),
 * and the state rules as data. Layout: NF-e 4.00 (MOC 7.0, PL_010 of NT 2025.002), DANFE NFC-e / QR code manual.
 */

// ---------------------------------------------------------------------------------------------
// States

/** IBGE state codes (cUF, the key's first two digits). */
export const UF_CODES = {
  RO: 11,
  AC: 12,
  AM: 13,
  RR: 14,
  PA: 15,
  AP: 16,
  TO: 17,
  MA: 21,
  PI: 22,
  CE: 23,
  RN: 24,
  PB: 25,
  PE: 26,
  AL: 27,
  SE: 28,
  BA: 29,
  MG: 31,
  ES: 32,
  RJ: 33,
  SP: 35,
  PR: 41,
  SC: 42,
  RS: 43,
  MS: 50,
  MT: 51,
  GO: 52,
  DF: 53,
} as const;
export type Uf = keyof typeof UF_CODES;
export const UFS = Object.keys(UF_CODES) as Uf[];

export type FiscalEnvironment = 'local' | 'homologacao' | 'producao';
export const FISCAL_ENVIRONMENTS = ['local', 'homologacao', 'producao'] as const;
export const FISCAL_ENVIRONMENT_LABELS: Record<FiscalEnvironment, string> = {
  local: 'Local (SEFAZ de teste)',
  homologacao: 'Homologação',
  producao: 'Produção',
};
/** tpAmb: 1 produção, 2 homologação (the local fake answers as homologação). */
export const tpAmbOf = (env: FiscalEnvironment): 1 | 2 => (env === 'producao' ? 1 : 2);

/**
 * What a state allows when the shop's link or SEFAZ fails. Sources:
 * - Offline contingency (tpEmis 9) for NFC-e: MOC 7.0 Anexo II (Manual de Especificações Técnicas do
 *   DANFE NFC-e e QR Code) item "Contingência off-line": the note is transmitted within 24 hours.
 * - São Paulo: Portaria SRE 79/2024 ended SAT on 1 Jan 2026 and SP's NFC-e rules
 *   (Portaria CAT 12/2015 as amended) do not accept offline contingency for the issuer's own link
 *   failure; EPEC (event 110140) only when SEFAZ-SP declares itself unavailable.
 * - EPEC for NFC-e exists in São Paulo only: SEFAZ-SP's own "RecepcaoEPEC" / "EPECStatusServico" web
 *   services (nfce.epec.fazenda.sp.gov.br, listed in nfephp-org/sped-nfe storage/wsnfe_4.00_mod65.xml;
 *   sped-nfe's TraitEPECNfce: "os demais estados não implementaram o serviço EPEC para NFCe"). "Declared
 *   down" is SEFAZ answering cStat 108 (Serviço Paralisado Momentaneamente) or 109 (Serviço Paralisado
 *   sem Previsão), as the status service or the authorisation itself, never the shop's own silence.
 */
export type StateFiscalRules = {
  offlineContingency: boolean;
  /** Hours the state gives to transmit a contingency note. */
  contingencyHours: number;
  /** Hours after authorisation a cancel (110111) is accepted. */
  cancelHours: number;
  /** EPEC (tpEmis 4, event 110140) when SEFAZ declares itself down (108/109). */
  epec: boolean;
};
const DEFAULT_RULES: StateFiscalRules = {
  offlineContingency: true,
  contingencyHours: 24,
  cancelHours: 24,
  epec: false,
};
export const STATE_FISCAL_RULES: Partial<Record<Uf, StateFiscalRules>> = {
  SP: { offlineContingency: false, contingencyHours: 24, cancelHours: 24, epec: true },
};
/** SEFAZ's own answer that it is down: 108 paralisado momentaneamente, 109 paralisado sem previsão. */
export const SEFAZ_DOWN_CODES = ['108', '109'];
export const stateRules = (uf: Uf): StateFiscalRules => STATE_FISCAL_RULES[uf] ?? DEFAULT_RULES;

/** The authoriser's URLs for a state and environment (SVRS states take SVRS's services). */
export function sefazUrls(uf: Uf, env: 'homologacao' | 'producao'): SefazServiceUrls {
  const key = env === 'producao' ? '1' : '2';
  const own = NFCE_WEB_SERVICES[uf]?.[key];
  const authoriser = NFCE_AUTHORISER[uf] ?? 'SVRS';
  const shared = NFCE_WEB_SERVICES[authoriser]?.[key];
  return { ...shared, ...own, keyQuery: own?.keyQuery || shared?.keyQuery || '' };
}

// ---------------------------------------------------------------------------------------------
// Documents

/**
 * CNPJ check, numeric and alphanumeric (IN RFB 2.229/2024, NT 2025.001): 12 characters [0-9A-Z] and
 * 2 numeric check digits; each character counts as its ASCII code minus 48, weights 2..9 from the
 * right, mod 11 (0 or 1 -> 0).
 */
export function isValidCnpjAny(value: string): boolean {
  const v = value.toUpperCase().replace(/[.\-/\s]/g, '');
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(v)) return false;
  if (/^(\d)\1{13}$/.test(v)) return false;
  return v.endsWith(cnpjCheckDigits(v.slice(0, 12)));
}

/** The two check digits of a CNPJ's 12 first characters (numeric or alphanumeric), as text. */
export function cnpjCheckDigits(base12: string): string {
  const digit = (base: string) => {
    let sum = 0;
    let weight = 2;
    for (let i = base.length - 1; i >= 0; i--) {
      sum += (base.charCodeAt(i) - 48) * weight;
      weight = weight === 9 ? 2 : weight + 1;
    }
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const base = base12.toUpperCase();
  const d1 = digit(base);
  return `${d1}${digit(base + d1)}`;
}

export const normalizeCnpj = (value: string) => value.toUpperCase().replace(/[.\-/\s]/g, '');

// ---------------------------------------------------------------------------------------------
// Access key

/**
 * mod-11 check digit of the key's 43 first characters (weights 2..9 from the right; rest 0 or 1 -> 0).
 * With the alphanumeric CNPJ (NT 2025.001, IN RFB 2.229/2024) the key's positions 7-18 may hold letters:
 * each character counts as its ASCII code minus 48 (digits keep their value, A = 17, B = 18, ...), as
 * the Receita's rule for the CNPJ's own digits; nfephp-org/sped-common src/Keys.php verifyingDigit
 * (commit ca57df3 "Ajustes para CNPJ alfanumérico", `ord($key[$i]) - 48`) computes it so.
 */
export function accessKeyCheckDigit(key43: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = key43.length - 1; i >= 0; i--) {
    sum += (key43.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The key's shape in PL_010 (tiposBasico_v4.00.xsd TChNFe): the CNPJ's 12 first positions may be letters. */
export const ACCESS_KEY_PATTERN = /^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/;

export type AccessKeyParts = {
  uf: Uf;
  /** Issue date's year and month (AAMM). */
  year: number;
  month: number;
  cnpj: string;
  model: 55 | 65;
  series: number;
  number: number;
  /** 1 normal, 4 EPEC (São Paulo, SEFAZ declared down), 9 offline contingency (NFC-e). */
  tpEmis: 1 | 4 | 9;
  /** cNF, 8 digits, not equal to nNF. */
  code: number;
};

export function accessKey(p: AccessKeyParts): string {
  const key43 = [
    String(UF_CODES[p.uf]),
    String(p.year % 100).padStart(2, '0'),
    String(p.month).padStart(2, '0'),
    normalizeCnpj(p.cnpj).padStart(14, '0'),
    String(p.model),
    String(p.series).padStart(3, '0'),
    String(p.number).padStart(9, '0'),
    String(p.tpEmis),
    String(p.code).padStart(8, '0'),
  ].join('');
  return key43 + accessKeyCheckDigit(key43);
}

export function isValidAccessKey(key: string): boolean {
  return ACCESS_KEY_PATTERN.test(key) && accessKeyCheckDigit(key.slice(0, 43)) === Number(key[43]);
}

// ---------------------------------------------------------------------------------------------
// Payments

/**
 * tPag (NT 2020.006 and NT 2023.004 codes): 01 dinheiro, 02 cheque, 03 cartão de crédito, 04 cartão de
 * débito, 05 crédito loja, 15 boleto, 16 depósito, 17 PIX dinâmico, 18 transferência, 20 PIX estático,
 * 10 vale alimentação, 11 vale refeição, 99 outros (with xPag).
 * Kept here, one place.
 */
export const TPAG_OF: Record<PaymentMethod, { tPag: string; xPag?: string }> = {
  money: { tPag: '01' },
  check: { tPag: '02' },
  creditCard: { tPag: '03' },
  debitCard: { tPag: '04' },
  creditShop: { tPag: '05' },
  boleto: { tPag: '15' },
  bankTransfer: { tPag: '18' },
  pix: { tPag: '17' },
  pixQrCode: { tPag: '17' },
  pixQrCodeStatic: { tPag: '20' },
  paymentOnDelivery: { tPag: '99', xPag: 'Pagamento na entrega' },
  storeCredit: { tPag: '99', xPag: 'Vale-troca' },
  // Meal vouchers (issue 33): a brand's card may be refeição or alimentação; the counter of a food shop
  // takes it as refeição (11). Marketplace orders were paid online to the marketplace (99, named).
  voucherAlelo: { tPag: '11' },
  voucherPluxee: { tPag: '11' },
  voucherTicket: { tPag: '11' },
  voucherVr: { tPag: '11' },
  voucherOther: { tPag: '11' },
  marketplace: { tPag: '99', xPag: 'Pago no marketplace' },
};
export const tPagOf = (method: PaymentMethod) => TPAG_OF[method];

/** Card payments (03/04/17) need card group info (indIntegra 2 = not integrated). */
export const isCardTPag = (tPag: string) => tPag === '03' || tPag === '04' || tPag === '17';

// ---------------------------------------------------------------------------------------------
// QR code v2 (Manual de Especificações Técnicas do DANFE NFC-e e QR Code, v5.0)

/** Hexadecimal of each character of a text (the offline QR's digest value). */
export const textToHex = (text: string) =>
  Array.from(text, (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');

export type QrCodeV2Input = {
  url: string;
  accessKey: string;
  tpAmb: 1 | 2;
  cscId: string;
  csc: string;
  /** Offline (tpEmis 9): the day of issue (2 digits), the total and the signature's DigestValue. */
  offline?: { day: string; totalCents: number; digestValue: string };
};

/** The text the hash covers (before the CSC), `chave|2|tpAmb|idCSC` or the offline form. */
export function qrCodeV2Text(input: QrCodeV2Input): string {
  const cscId = String(Number(input.cscId));
  if (!input.offline) return `${input.accessKey}|2|${input.tpAmb}|${cscId}`;
  const value = (input.offline.totalCents / 100).toFixed(2);
  return `${input.accessKey}|2|${input.tpAmb}|${input.offline.day}|${value}|${textToHex(
    input.offline.digestValue,
  )}|${cscId}`;
}

/** The full QR code URL; `sha1Hex` is SHA-1 in hexadecimal (Node's crypto in the API). */
export function qrCodeV2(input: QrCodeV2Input, sha1Hex: (text: string) => string): string {
  const text = qrCodeV2Text(input);
  const hash = sha1Hex(text + input.csc).toUpperCase();
  const url = input.url.includes('?p=') ? input.url : `${input.url}?p=`;
  return `${url}${text}|${hash}`;
}

// ---------------------------------------------------------------------------------------------
// QR code v3 (NT 2025.001 v1.00, DANFE NFC-e / QR Code manual v6.0): no CSC. Online the text is
// `chave|3|tpAmb`; offline (tpEmis 9) `chave|3|tpAmb|dia|vNF|tp_idDest|cDest|assinatura`, where the
// signature is the A1's RSA signature (SHA-1, PKCS#1 v1.5, as nfephp-org/sped-nfe's QRCode::get300
// signs with sped-common's Certificate::sign) of the text before it, in base64. tp_idDest: 1 CNPJ,
// 2 CPF; both empty for an unidentified consumer (only the separators).

/** The QR code layouts a shop can choose (v3 where the state's authorizer accepts NT 2025.001). */
export const QR_CODE_VERSIONS = [2, 3] as const;
export type QrCodeVersion = (typeof QR_CODE_VERSIONS)[number];

export type QrCodeV3Input = {
  url: string;
  accessKey: string;
  tpAmb: 1 | 2;
  /** Offline (tpEmis 9): the day of issue (2 digits), the total and the consumer's CPF/CNPJ. */
  offline?: { day: string; totalCents: number; consumerDocument: string | null };
};

/** The text of a v3 QR code before its signature (online: the whole text). */
export function qrCodeV3Text(input: QrCodeV3Input): string {
  const head = `${input.accessKey}|3|${input.tpAmb}`;
  if (!input.offline) return head;
  const { day, totalCents, consumerDocument } = input.offline;
  const kind = !consumerDocument ? '' : consumerDocument.length === 11 ? '2' : '1';
  return `${head}|${day}|${(totalCents / 100).toFixed(2)}|${kind}|${consumerDocument ?? ''}`;
}

/** The full v3 QR code URL; `signBase64` signs offline text with the A1 (Node's crypto in the API). */
export function qrCodeV3(input: QrCodeV3Input, signBase64: (text: string) => string): string {
  const text = qrCodeV3Text(input);
  const url = input.url.includes('?p=') ? input.url : `${input.url}?p=`;
  return input.offline ? `${url}${text}|${signBase64(text)}` : `${url}${text}`;
}

// ---------------------------------------------------------------------------------------------
// Settings and notes (the contract)

export const CRTS = ['1', '2', '3', '4'] as const;
export const CRT_LABELS: Record<(typeof CRTS)[number], string> = {
  '1': 'Simples Nacional',
  '2': 'Simples Nacional, excesso de sublimite',
  '3': 'Regime normal',
  '4': 'MEI (Simples Nacional)',
};

export const FISCAL_MESSAGES = {
  cnpj: 'CNPJ inválido',
  ie: 'Inscrição estadual inválida (só números, até 14 dígitos, ou ISENTO)',
  ibge: 'Código do município do IBGE deve ter 7 dígitos',
  uf: 'UF inválida',
  ncm: 'NCM deve ter 8 dígitos',
  cfop: 'CFOP deve ter 4 dígitos começando por 5 (venda dentro do estado)',
  csosn: 'CSOSN inválido',
  cest: 'CEST deve ter 7 dígitos',
  zip: 'CEP deve ter 8 dígitos',
  cscId: 'Identificador do CSC deve ter até 6 dígitos',
  cscIdRequired: 'Informe o identificador do CSC (o QR Code versão 2 usa o CSC)',
  csc: 'CSC deve ter de 16 a 36 caracteres',
  noCertificate: 'Envie o certificado A1 (.pfx) antes de ligar a emissão de NFC-e.',
  certificatePassword: 'Senha do certificado incorreta ou arquivo .pfx inválido.',
  certificateOtherCnpj: (found: string, expected: string) =>
    `O certificado é do CNPJ ${found}, mas o emitente é ${expected}: envie o certificado da loja.`,
  certificateExpired: (date: string) => `O certificado venceu em ${date}: envie um certificado válido.`,
  certificateExpiring: (days: number, date: string) =>
    days <= 0
      ? `O certificado A1 da NFC-e venceu em ${date}: as notas não podem ser emitidas. Envie o novo em Configurações > Fiscal.`
      : `O certificado A1 da NFC-e vence em ${days === 1 ? '1 dia' : `${days} dias`} (${date}): envie o novo em Configurações > Fiscal.`,
  certificateNoCnpj: 'O certificado não traz um CNPJ: envie um e-CNPJ A1.',
  settingsFirst: 'Preencha e salve os dados do emitente antes de enviar o certificado.',
  cpf: 'CPF inválido',
  consumerDocument: 'Informe um CPF ou CNPJ válido',
  cancelReason: 'A justificativa precisa ter pelo menos 15 caracteres.',
  voidReason: 'A justificativa precisa ter pelo menos 15 caracteres.',
  voidRange: 'O número final deve ser maior ou igual ao inicial.',
  notFound: 'Nota fiscal não encontrada',
  notAuthorised: 'Só uma NFC-e autorizada pode ser cancelada.',
  cancelDeadline: 'O prazo de cancelamento desta NFC-e já passou.',
  contingencyText: 'EMITIDA EM CONTINGÊNCIA',
  epecText: 'EMITIDA EM CONTINGÊNCIA - EPEC',
  epecIssued:
    'SEFAZ-SP declarou paralisação: a NFC-e saiu em contingência EPEC (evento registrado) e será transmitida quando a SEFAZ voltar.',
  noFiscalValue: 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL',
  epecUnavailable: (number: number, cStat: string, xMotivo: string) =>
    `SEFAZ-SP declarou paralisação, mas o serviço EPEC não está ativo (${cStat} ${xMotivo}): a NFC-e nº ${number} ficou na fila e será enviada quando a SEFAZ voltar.`,
  epecNotApplicable: 'A contingência EPEC de NFC-e existe só em São Paulo.',
  epecSilent: 'O serviço EPEC da SEFAZ-SP não respondeu.',
  spQueued:
    'SEFAZ-SP não respondeu. São Paulo não aceita NFC-e em contingência off-line: a nota ficou na fila e será enviada quando a conexão voltar.',
} as const;

// ---------------------------------------------------------------------------------------------
// IBS / CBS (tax reform, LC 214/2025; NT 2025.002-RTC and its schema package PL_010)

/**
 * The cClassTrib codes a shop's counter sale (NFC-e) may use, with the rate reduction each implies.
 * Source: the official "Tabela de Código de Classificação Tributária do IBS e da CBS" (Informe Técnico
 * 2024.001 / 2025.002, Portal da NF-e), read through its public transcription in
 * claudiostocco/reformatributaria scripts/UpdClasTrib.sql (columns TXREDIBS, TXREDCBS and DFEASSOCIADO
 * including "NFCe"); only the codes of a retail or food counter that need no extra group (deferral,
 * presumed credit, monophasic fuel) are kept. The first three digits of a cClassTrib are its CST.
 */
export const CLASS_TRIB_NFCE = {
  '000001': { reduction: 0, label: 'Tributação integral do IBS e da CBS' },
  '200003': { reduction: 100, label: 'Alimentos da cesta básica (Anexo I da LC 214/2025)' },
  '200009': { reduction: 100, label: 'Medicamentos do Anexo XIV da LC 214/2025' },
  '200013': { reduction: 100, label: 'Absorventes e coletores menstruais' },
  '200014': { reduction: 100, label: 'Hortícolas, frutas e ovos (Anexo XV)' },
  '200032': { reduction: 60, label: 'Medicamentos registrados na Anvisa' },
  '200034': { reduction: 60, label: 'Alimentos do Anexo VII da LC 214/2025' },
  '200035': { reduction: 60, label: 'Higiene pessoal e limpeza (Anexo VIII)' },
  '200047': { reduction: 40, label: 'Bares e restaurantes (art. 275 da LC 214/2025)' },
  '410001': { reduction: 0, label: 'Bonificação que consta do documento fiscal' },
  '410999': { reduction: 0, label: 'Operação não onerosa sem previsão de tributação' },
} as const satisfies Record<string, { reduction: number; label: string }>;
export type ClassTrib = keyof typeof CLASS_TRIB_NFCE;
export const CLASS_TRIBS = Object.keys(CLASS_TRIB_NFCE) as ClassTrib[];
/** The CST of IBS/CBS is the cClassTrib's first three digits. */
export const cstOfClassTrib = (cClassTrib: string) => cClassTrib.slice(0, 3);
/** CST 410 (imunidade, isenção, não incidência) carries no gIBSCBS group (rule UB13-20). */
export const cstHasTaxGroup = (cst: string) => cst === '000' || cst === '200';
/** The Simples Nacional default: full taxation (the tax itself is due only from 2027, art. 348). */
export const DEFAULT_CLASS_TRIB: ClassTrib = '000001';

/** The three rates of a note: CBS (União), IBS of the state and IBS of the município. */
export const IBS_CBS_PARTS = ['cbs', 'ibsUf', 'ibsMun'] as const;
export type IbsCbsPart = (typeof IBS_CBS_PARTS)[number];
export const IBS_CBS_PART_LABELS: Record<IbsCbsPart, string> = {
  cbs: 'CBS',
  ibsUf: 'IBS estadual',
  ibsMun: 'IBS municipal',
};
/** Rates in ten-thousandths of a percent (0.9% = 9000), as the schema's TDec_0302_04RTC has 4 places. */
export type IbsCbsRates = Record<IbsCbsPart, number>;

/**
 * A year's rate: fixed by the law itself, or left to be set later (the Senate's reference rates and each
 * federative entity's own rate, arts. 14 and 18 of LC 214/2025), then entered by the shop on the fiscal
 * page; `less` is what the law takes off the set rate that year.
 */
export type ScheduledRate = { law: number } | { set: true; less?: number };
export type IbsCbsYear = Record<IbsCbsPart, ScheduledRate> & { source: string };

const setLater: ScheduledRate = { set: true };
/**
 * The transition of LC 214/2025 (Planalto text, www.planalto.gov.br/ccivil_03/leis/lcp/lcp214.htm), by
 * the note's issue year:
 * - 2026, the test year: CBS 0.9% (art. 346), IBS 0.1% of the state and none of the município (art. 343).
 * - 2027 and 2028: IBS 0.05% of the state and 0.05% of the município (art. 344); the CBS at its set rate
 *   "reduzida em 0,1 (um décimo) ponto percentual" (art. 347); the CBS rate itself is the União's,
 *   failing it the reference rate the Senate fixes (arts. 14, 18).
 * - 2029 to 2033: every rate is set (the reference rates of arts. 361 to 364, fixed by Senate
 *   resolution so the IBS yields 10%, 20%, 30% and 40% of the states' and municípios' reference revenue,
 *   then the full rate from 2033); none is in the law as a number, so the shop enters them.
 * After 2033 the 2033 row holds. A year before 2026 reads as 2026.
 */
export const IBS_CBS_SCHEDULE: Record<number, IbsCbsYear> = {
  2026: {
    cbs: { law: 9000 },
    ibsUf: { law: 1000 },
    ibsMun: { law: 0 },
    source: 'LC 214/2025, arts. 343 e 346 (ano de teste)',
  },
  2027: {
    cbs: { set: true, less: 1000 },
    ibsUf: { law: 500 },
    ibsMun: { law: 500 },
    source: 'LC 214/2025, arts. 344 e 347',
  },
  2028: {
    cbs: { set: true, less: 1000 },
    ibsUf: { law: 500 },
    ibsMun: { law: 500 },
    source: 'LC 214/2025, arts. 344 e 347',
  },
  2029: { cbs: setLater, ibsUf: setLater, ibsMun: setLater, source: 'LC 214/2025, arts. 14, 18 e 361' },
  2030: { cbs: setLater, ibsUf: setLater, ibsMun: setLater, source: 'LC 214/2025, arts. 14, 18 e 362' },
  2031: { cbs: setLater, ibsUf: setLater, ibsMun: setLater, source: 'LC 214/2025, arts. 14, 18 e 363' },
  2032: { cbs: setLater, ibsUf: setLater, ibsMun: setLater, source: 'LC 214/2025, arts. 14, 18 e 364' },
  2033: { cbs: setLater, ibsUf: setLater, ibsMun: setLater, source: 'LC 214/2025, arts. 14 e 18' },
};
export const IBS_CBS_YEARS = Object.keys(IBS_CBS_SCHEDULE).map(Number);
export const scheduleOf = (year: number): IbsCbsYear =>
  IBS_CBS_SCHEDULE[Math.min(Math.max(year, 2026), 2033)];

/** The rates the shop entered, by year ("2027": { cbs: 88000 }): only where the law leaves them to be set. */
export type ShopIbsCbsRates = Record<string, Partial<IbsCbsRates>>;

export const ibsCbsMissingRate = (year: number, part: IbsCbsPart) =>
  `Alíquota de ${IBS_CBS_PART_LABELS[part]} de ${year} não informada: a LC 214/2025 deixa essa alíquota para ser fixada depois. Informe-a em Configurações > Fiscal.`;

/**
 * The rates of a note issued in `year`: the law's where it gives a number, else the shop's (less what the
 * law takes off that year). `missing` names the rates the shop still has to enter.
 */
export function ibsCbsRatesOf(
  year: number,
  shop: ShopIbsCbsRates | null | undefined,
): { rates: IbsCbsRates; missing: null } | { rates: null; missing: IbsCbsPart[] } {
  const row = scheduleOf(year);
  const given = shop?.[String(Math.min(Math.max(year, 2026), 2033))] ?? {};
  const rates = {} as IbsCbsRates;
  const missing: IbsCbsPart[] = [];
  for (const part of IBS_CBS_PARTS) {
    const rule = row[part];
    if ('law' in rule) rates[part] = rule.law;
    else if (given[part] === undefined) missing.push(part);
    else rates[part] = Math.max(0, (given[part] as number) - (rule.less ?? 0));
  }
  return missing.length ? { rates: null, missing } : { rates, missing: null };
}

/** The law's own rate of a year (null where it is set later): what SEFAZ can check on its own. */
export const lawRate = (year: number, part: IbsCbsPart): number | null => {
  const rule = scheduleOf(year)[part];
  return 'law' in rule ? rule.law : null;
};

/** The 2026 rates (test year), kept for the callers that read them by year. */
export const ibsCbsRates = (year: number): IbsCbsRates =>
  ibsCbsRatesOf(year, null).rates ?? (ibsCbsRatesOf(2026, null).rates as IbsCbsRates);

/** The shop's rates as the settings take them: ten-thousandths of a percent, only where the law sets none. */
export const shopIbsCbsRatesSchema = z
  .record(
    z.string(),
    z.object(
      Object.fromEntries(
        IBS_CBS_PARTS.map((p) => [
          p,
          z
            .number()
            .int('Alíquota em %, com até 4 casas decimais (por exemplo 8,8)')
            .min(0, 'Alíquota não pode ser negativa')
            .max(1_000_000, 'Alíquota deve ser de no máximo 100%')
            .optional(),
        ]),
      ) as Record<IbsCbsPart, z.ZodOptional<z.ZodNumber>>,
    ),
  )
  .superRefine((v, ctx) => {
    for (const [year, given] of Object.entries(v)) {
      if (!/^20(2[7-9]|3[0-3])$/.test(year)) {
        ctx.addIssue({
          code: 'custom',
          path: [year],
          message: 'Ano das alíquotas do IBS/CBS deve ser de 2027 a 2033',
        });
        continue;
      }
      for (const part of IBS_CBS_PARTS)
        if (given[part] !== undefined && lawRate(Number(year), part) !== null)
          ctx.addIssue({
            code: 'custom',
            path: [year, part],
            message: `${IBS_CBS_PART_LABELS[part]} de ${year} já é fixada pela LC 214/2025 (${scheduleOf(Number(year)).source}): não se informa.`,
          });
    }
  });

/** "8,8" / "8.8" / "0,0500" -> ten-thousandths of a percent (88000); null when blank; NaN when not a rate. */
export function parseRatePercent(text: string): number | null {
  const v = text.trim().replace('%', '').replace(',', '.');
  if (v === '') return null;
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(v)) return Number.NaN;
  const [whole, frac = ''] = v.split('.');
  return Number(whole) * 10_000 + Number(frac.padEnd(4, '0'));
}
/** 88000 -> "8,8" (as a shop types it). */
export const formatRatePercent = (rate: number) =>
  (rate / 10_000)
    .toFixed(4)
    .replace(/\.?0+$/, '')
    .replace('.', ',');

/**
 * When a note carries the IBSCBS groups. NT 2025.002 (v1.30+ timetable): required for CRT 3 (regime
 * normal) in 2026; for Simples Nacional and MEI (CRT 1, 2, 4) the orientation is a future NT and the tax
 * applies only from 2027 (art. 348 LC 214/2025), so "auto" leaves it out for them; "always" fills it
 * (the NT accepts it filled: the rules then apply), "never" leaves it out.
 */
export const IBS_CBS_MODES = ['auto', 'always', 'never'] as const;
export type IbsCbsMode = (typeof IBS_CBS_MODES)[number];
export const IBS_CBS_MODE_LABELS: Record<IbsCbsMode, string> = {
  auto: 'Automático (só no regime normal)',
  always: 'Sempre informar',
  never: 'Não informar',
};
export const ibsCbsApplies = (mode: IbsCbsMode | undefined, crt: string) =>
  mode === 'always' || ((mode ?? 'auto') === 'auto' && crt === '3');

/** A rate (ten-thousandths of a percent) as the schema's TDec_0302_04RTC: "0.9000". */
export const ibsCbsRateText = (rate: number) => (rate / 10_000).toFixed(4);

export type IbsCbsItem = {
  cst: string;
  cClassTrib: string;
  /** Null for a CST without the gIBSCBS group (410). */
  group: {
    baseCents: number;
    reduction: number;
    ibsUf: { rate: number; effective: number; cents: number };
    ibsMun: { rate: number; effective: number; cents: number };
    cbs: { rate: number; effective: number; cents: number };
    ibsCents: number;
  } | null;
};

/**
 * The IBS/CBS of one item: base = vProd - vDesc + vOutro (no ICMS, PIS or COFINS is charged on the
 * note, rule UB16-10), each rate reduced by the cClassTrib's percentage (gRed: pAliqEfet = p x (1 -
 * pRedAliq/100)), each amount rounded half up to the cent.
 */
export function ibsCbsItem(baseCents: number, cClassTrib: string, rates: IbsCbsRates): IbsCbsItem {
  const cst = cstOfClassTrib(cClassTrib);
  if (!cstHasTaxGroup(cst)) return { cst, cClassTrib, group: null };
  const reduction = CLASS_TRIB_NFCE[cClassTrib as ClassTrib]?.reduction ?? 0;
  const part = (rate: number) => {
    const effective = Math.round((rate * (100 - reduction)) / 100);
    return { rate, effective, cents: Math.round((baseCents * effective) / 1_000_000) };
  };
  const ibsUf = part(rates.ibsUf);
  const ibsMun = part(rates.ibsMun);
  const cbs = part(rates.cbs);
  return {
    cst,
    cClassTrib,
    group: { baseCents, reduction, ibsUf, ibsMun, cbs, ibsCents: ibsUf.cents + ibsMun.cents },
  };
}

export const classTribMessage = (code: string) =>
  `Classificação tributária (cClassTrib) ${code} não existe na tabela do IBS/CBS para NFC-e.`;
const classTrib = z
  .string()
  .regex(/^\d{6}$/, 'cClassTrib deve ter 6 dígitos')
  .superRefine((v, ctx) => {
    if (!(v in CLASS_TRIB_NFCE)) ctx.addIssue({ code: 'custom', message: classTribMessage(v) });
  });

const ncm = z.string().regex(/^\d{8}$/, FISCAL_MESSAGES.ncm);
const cfop = z.string().regex(/^5\d{3}$/, FISCAL_MESSAGES.cfop);
const csosn = z.enum(['101', '102', '103', '201', '202', '203', '300', '400', '500', '900'], {
  message: FISCAL_MESSAGES.csosn,
});
const cest = z
  .string()
  .regex(/^\d{7}$/, FISCAL_MESSAGES.cest)
  .nullable();

/** A product's fiscal fields; null uses the shop's defaults. */
const origin = z.enum(['0', '1', '2', '3', '4', '5', '6', '7', '8'], { message: 'Origem deve ser de 0 a 8' });
const fiscalUnit = z
  .string()
  .trim()
  .min(1, 'Informe a unidade fiscal')
  .max(6, 'Unidade fiscal: até 6 caracteres');

/** A product's fiscal fields; null uses the shop's defaults. */
export const productFiscalSchema = z.object({
  ncm,
  cfop,
  csosn,
  origin,
  cest,
  unit: fiscalUnit,
  /** IBS/CBS classification (NT 2025.002); its first three digits are the CST. */
  cClassTrib: classTrib.default(DEFAULT_CLASS_TRIB),
});
export type ProductFiscal = z.infer<typeof productFiscalSchema>;

/** The fiscal fields in the order the forms and the CSV show them. */
export const PRODUCT_FISCAL_FIELDS = [
  'ncm',
  'cfop',
  'csosn',
  'origin',
  'cest',
  'unit',
  'cClassTrib',
] as const;
export type ProductFiscalField = (typeof PRODUCT_FISCAL_FIELDS)[number];
export const PRODUCT_FISCAL_LABELS: Record<ProductFiscalField, string> = {
  ncm: 'NCM',
  cfop: 'CFOP',
  csosn: 'CSOSN',
  origin: 'Origem',
  cest: 'CEST',
  unit: 'Unidade fiscal',
  cClassTrib: 'cClassTrib (IBS/CBS)',
};
export const CSOSNS = ['101', '102', '103', '201', '202', '203', '300', '400', '500', '900'] as const;
/** Origem da mercadoria (tabela A do ICMS). */
export const ORIGIN_LABELS: Record<z.infer<typeof origin>, string> = {
  '0': '0 - Nacional',
  '1': '1 - Estrangeira, importação direta',
  '2': '2 - Estrangeira, adquirida no mercado interno',
  '3': '3 - Nacional, mais de 40% de conteúdo importado',
  '4': '4 - Nacional, processos produtivos básicos',
  '5': '5 - Nacional, até 40% de conteúdo importado',
  '6': '6 - Estrangeira, importação direta, sem similar nacional',
  '7': '7 - Estrangeira, mercado interno, sem similar nacional',
  '8': '8 - Nacional, mais de 70% de conteúdo importado',
};

/**
 * A product's own fiscal fields (issue 32): each field given wins over the shop's default, each one
 * left out follows the default (a shop that changes its default CFOP changes every product that did
 * not set its own).
 */
export const productFiscalOverrideSchema = z.object({
  ncm: ncm.optional(),
  cfop: cfop.optional(),
  csosn: csosn.optional(),
  origin: origin.optional(),
  cest: cest.optional(),
  unit: fiscalUnit.optional(),
  cClassTrib: classTrib.optional(),
});
export type ProductFiscalOverride = z.infer<typeof productFiscalOverrideSchema>;

/** The fields a note uses: the product's own over the shop's defaults. */
export function fiscalWithDefaults(
  own: ProductFiscalOverride | null | undefined,
  defaults: ProductFiscal,
): ProductFiscal {
  const merged = { ...defaults };
  for (const field of PRODUCT_FISCAL_FIELDS) {
    const value = own?.[field];
    if (value !== undefined) (merged as Record<string, unknown>)[field] = value;
  }
  return merged;
}

export const fiscalSettingsInputSchema = z
  .object({
    enabled: z.boolean(),
    environment: z.enum(FISCAL_ENVIRONMENTS),
    cnpj: z.string().transform(normalizeCnpj).refine(isValidCnpjAny, FISCAL_MESSAGES.cnpj),
    ie: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^(\d{2,14}|ISENTO)$/, FISCAL_MESSAGES.ie),
    legalName: z.string().trim().min(2, 'Informe a razão social').max(60),
    tradeName: z.string().trim().max(60).nullable(),
    crt: z.enum(CRTS),
    uf: z.enum(UFS as [Uf, ...Uf[]], { message: FISCAL_MESSAGES.uf }),
    cityCode: z.string().regex(/^\d{7}$/, FISCAL_MESSAGES.ibge),
    cityName: z.string().trim().min(2, 'Informe o município').max(60),
    street: z.string().trim().min(2, 'Informe o logradouro').max(60),
    streetNumber: z.string().trim().min(1, 'Informe o número').max(60),
    district: z.string().trim().min(2, 'Informe o bairro').max(60),
    zipCode: z
      .string()
      .transform((v) => v.replace(/\D/g, ''))
      .refine((v) => /^\d{8}$/.test(v), FISCAL_MESSAGES.zip),
    series: z.number().int().min(0).max(999),
    nextNumber: z.number().int().min(1).max(999_999_999),
    /** Only QR code v2 uses the CSC: with v3 it may be blank. */
    cscId: z
      .string()
      .trim()
      .regex(/^\d{0,6}$/, FISCAL_MESSAGES.cscId),
    /** Empty keeps the stored CSC. */
    csc: z
      .string()
      .trim()
      .refine((v) => v === '' || (v.length >= 16 && v.length <= 36), FISCAL_MESSAGES.csc),
    /** QR code v2 (CSC hash) or v3 (NT 2025.001: no CSC, offline notes signed with the A1). */
    qrCodeVersion: z
      .union([z.literal(2), z.literal(3)], { message: 'Versão do QR Code deve ser 2 ou 3' })
      .default(2),
    defaults: productFiscalSchema,
    /** When the notes carry the IBS/CBS groups (NT 2025.002). */
    ibsCbsMode: z.enum(IBS_CBS_MODES, { message: 'Opção de IBS/CBS inválida' }).default('auto'),
    /**
     * The rates LC 214/2025 leaves to be set later, by year (the law's own rates are not entered);
     * left out keeps the stored ones.
     */
    ibsCbsRates: shopIbsCbsRatesSchema.optional(),
  })
  .superRefine((v, issues) => {
    // QR code v3 (NT 2025.001) has no CSC hash: the CSC and its id are asked only with v2.
    if (v.qrCodeVersion === 2 && v.cscId === '')
      issues.addIssue({ code: 'custom', path: ['cscId'], message: FISCAL_MESSAGES.cscIdRequired });
  });
export type FiscalSettingsInput = z.input<typeof fiscalSettingsInputSchema>;

export const certificateInfoSchema = z.object({
  holder: z.string(),
  cnpj: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
});
export type CertificateInfo = z.infer<typeof certificateInfoSchema>;

/** The answer: plain fields (the input's transforms do not run backwards). */
export const fiscalSettingsSchema = z.object({
  enabled: z.boolean(),
  environment: z.enum(FISCAL_ENVIRONMENTS),
  cnpj: z.string(),
  ie: z.string(),
  legalName: z.string(),
  tradeName: z.string().nullable(),
  crt: z.enum(CRTS),
  uf: z.enum(UFS as [Uf, ...Uf[]]),
  cityCode: z.string(),
  cityName: z.string(),
  street: z.string(),
  streetNumber: z.string(),
  district: z.string(),
  zipCode: z.string(),
  series: z.number(),
  nextNumber: z.number(),
  cscId: z.string(),
  qrCodeVersion: z.union([z.literal(2), z.literal(3)]),
  defaults: productFiscalSchema,
  ibsCbsMode: z.enum(IBS_CBS_MODES),
  ibsCbsRates: z.record(
    z.string(),
    z.object({ cbs: z.number(), ibsUf: z.number(), ibsMun: z.number() }).partial(),
  ),
  hasCsc: z.boolean(),
  certificate: certificateInfoSchema.nullable(),
  /** The state's rules, for the page's notes. */
  offlineContingency: z.boolean(),
});
export type FiscalSettings = z.infer<typeof fiscalSettingsSchema>;

export const certificateUploadSchema = z.object({
  /** The .pfx in base64. */
  pfxBase64: z.string().min(1, 'Envie o arquivo .pfx'),
  password: z.string().min(1, 'Informe a senha do certificado'),
});

export const FISCAL_NOTE_STATUSES = [
  'pending',
  'contingency',
  'epec',
  'queued',
  'authorised',
  'rejected',
  'canceled',
  'voided',
] as const;
export type FiscalNoteStatus = (typeof FISCAL_NOTE_STATUSES)[number];
export const FISCAL_NOTE_STATUS_LABELS: Record<FiscalNoteStatus, string> = {
  pending: 'Enviando',
  contingency: 'Em contingência',
  epec: 'Em contingência EPEC',
  queued: 'Na fila (aguardando SEFAZ)',
  authorised: 'Autorizada',
  rejected: 'Rejeitada',
  canceled: 'Cancelada',
  voided: 'Inutilizada',
};

export const fiscalNoteSchema = z.object({
  id: z.number(),
  saleId: z.number().nullable(),
  saleNumber: z.number().nullable(),
  series: z.number(),
  number: z.number(),
  accessKey: z.string(),
  status: z.enum(FISCAL_NOTE_STATUSES),
  tpEmis: z.number(),
  environment: z.enum(FISCAL_ENVIRONMENTS),
  totalCents: z.number(),
  consumerDocument: z.string().nullable(),
  protocol: z.string().nullable(),
  statusCode: z.string().nullable(),
  statusText: z.string().nullable(),
  qrCodeUrl: z.string().nullable(),
  /** The deadline of a contingency note's transmission. */
  transmitBy: z.string().nullable(),
  createdAt: z.string(),
  authorisedAt: z.string().nullable(),
});
export type FiscalNote = z.infer<typeof fiscalNoteSchema>;

export const fiscalNoteListSchema = z.object({ notes: z.array(fiscalNoteSchema) });

export const fiscalCancelSchema = z.object({
  reason: z.string().trim().min(15, FISCAL_MESSAGES.cancelReason).max(255),
});
export const fiscalVoidSchema = z
  .object({
    series: z.number().int().min(0).max(999),
    from: z.number().int().min(1),
    to: z.number().int().min(1),
    reason: z.string().trim().min(15, FISCAL_MESSAGES.voidReason).max(255),
  })
  .refine((v) => v.to >= v.from, { message: FISCAL_MESSAGES.voidRange, path: ['to'] });
export const fiscalVoidResultSchema = z.object({
  statusCode: z.string(),
  statusText: z.string(),
  protocol: z.string().nullable(),
});

/** "CPF na nota": a CPF or CNPJ, digits only. */
export const consumerDocumentSchema = z
  .string()
  .transform((v) => v.toUpperCase().replace(/[^0-9A-Z]/g, ''))
  .refine((v) => (v.length === 11 ? isValidCpf(v) : v.length === 14 && isValidCnpjAny(v)), {
    message: FISCAL_MESSAGES.consumerDocument,
  });

/** The accountant's monthly ZIP: the month, AAAA-MM, in the shop's time zone. */
export const fiscalMonthQuerySchema = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Informe o mês como AAAA-MM'),
});

/** Whether the shop issues NFC-e now: the PDV asks "CPF na nota?" only then. */
export const fiscalStatusSchema = z.object({ enabled: z.boolean() });

export const fiscalPageSchema = z.object({ settings: fiscalSettingsSchema.nullable() });

/**
 * São Paulo's EPEC NFC-e service's own status (EPECStatusServico: consStatServ with xServ STATUS; cStat
 * 107 is "in operation", anything else is not: nfephp-org/sped-nfe docs/metodos/EPECNFCe_SP.md). In
 * production SEFAZ-SP turns the service on only when it needs it, so it is asked before each EPEC.
 * `available` null: the shop is not in a state with EPEC, or SEFAZ-SP did not answer.
 */
export const EPEC_IN_OPERATION = '107';
export const epecStatusSchema = z.object({
  /** Whether the shop's state has EPEC for NFC-e at all (São Paulo). */
  applies: z.boolean(),
  available: z.boolean().nullable(),
  statusCode: z.string().nullable(),
  statusText: z.string(),
  checkedAt: z.string().nullable(),
});
export type EpecStatus = z.infer<typeof epecStatusSchema>;

/** The note of a sale (sale detail), null without one. */
export const saleFiscalNoteSchema = z.object({ note: fiscalNoteSchema.nullable() });

export const productFiscalAnswerSchema = z.object({
  /** The product's own fields (each one left out follows the default); null uses the shop's defaults. */
  fields: productFiscalOverrideSchema.nullable(),
  defaults: productFiscalSchema.nullable(),
});
export const productFiscalInputSchema = z.object({ fields: productFiscalOverrideSchema.nullable() });

/** An NF-e date-time (TDateTimeUTC): the shop's wall clock with its offset, `2026-11-27T08:30:00-03:00`. */
export function nfeDateTime(at: Date, timeZone: string): string {
  const wall = wallTime(at, timeZone);
  const offsetMin = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${new Date(wall).toISOString().slice(0, 19)}${sign}${hhmm}`;
}
