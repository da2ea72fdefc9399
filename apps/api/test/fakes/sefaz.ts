import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  CLASS_TRIB_NFCE,
  cstHasTaxGroup,
  ibsCbsRateText,
  isValidAccessKey,
  lawRate,
  UF_CODES,
} from '@balcao/core/fiscal';
import forge from 'node-forge';
import {
  element,
  NFE_NS,
  SOAP_NS,
  soapBody,
  tag,
  validateSchema,
  verifySignature,
} from '../../src/modules/fiscal/xml.ts';
import { makeServerCert, makeTestCa, type TestCa } from './sefazCerts.ts';

/**
 * A local SEFAZ (issue 32) that follows the NF-e 4.00 web services' contract: HTTPS that demands a
 * client certificate signed by the test CA (a certificate from elsewhere fails the handshake, as at
 * SEFAZ), SOAP 1.2 envelopes (nfeDadosMsg / nfeResultMsg) at /ws/<service>, the schema checked with the
 * same PL_010 XSDs (with NT 2025.002's IBS/CBS rules) and the signature against the certificate sent in KeyInfo, which must be the TLS
 * client's. Answers the real cStat codes: 100, 104, 107, 128, 135, 102, 204, 206, 213, 217, 225, 241, 256,
 * 297, 386, 539, 656, 778 (voided ranges are kept: 256 on a second inutilização, 206 for a voided
 * number sent). For the tests it can be slowed, made to hold the answer (timeout), answer 500 or go away.
 * Chaos (bench/nfce-outage.ts and the invariants test): each call, at random, is held without being
 * processed (a timeout), answered 500, or processed and its answer then never sent (the answer lost on
 * the way back: SEFAZ has the note, the client does not know).
 */

/** Chances per call (0..1) in chaos mode. */
export type SefazChaos = { timeout: number; error5xx: number; lostAnswer: number };

export type SefazMode = 'ok' | 'slow' | 'timeout' | 'error5xx';

type Stored = {
  key: string;
  cnpj: string;
  series: number;
  number: number;
  protocol: string;
  canceled: boolean;
  /** The DigestValue of the NFe SEFAZ authorised (what the app's nfeProc must carry). */
  digest: string;
};

export type FakeSefaz = {
  url: string;
  port: number;
  ca: TestCa;
  /** PEM of the CA the API must trust for this server's certificate. */
  caPem: string;
  mode: SefazMode;
  delayMs: number;
  /** Random failures per call (null: none). */
  chaos: SefazChaos | null;
  /** Chaos outcomes so far. */
  chaosCounts: { timeout: number; error5xx: number; lostAnswer: number };
  /** Calls per service. */
  calls: Record<string, number>;
  /** Authorised notes by key. */
  notes: Map<string, Stored>;
  /** Forces the next authorisation's cStat (e.g. '539', or a rejection of FORCED_REJECTIONS such as '778'). */
  forceNext: string | null;
  /** Voided ranges (inutilização homologada). */
  voids: { cnpj: string; series: number; from: number; to: number }[];
  /**
   * SEFAZ declares itself down: 108 (paralisado momentaneamente) or 109 (sem previsão) from the status
   * service and the NF-e services; SP's EPEC service (RecepcaoEPEC) stays up, as it is a separate one.
   */
  declaredDown: '108' | '109' | null;
  /** EPECs registered (110140), by the note's key: their protocol. */
  epecs: Map<string, string>;
  /** SEFAZ-SP's EPEC service status (cStat, xMotivo): 107 in operation, anything else not active. */
  epecStatus: [string, string];
  /** More calls than this for one key within a minute: 656 consumo indevido. */
  maxCallsPerKey: number;
  /** Stops listening and drops connections (SEFAZ or the link gone). */
  goAway(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
};

const now = () => {
  const d = new Date(Date.now() - 3 * 3600_000);
  return `${d.toISOString().slice(0, 19)}-03:00`;
};

const envelope = (service: string, body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_NS}"><soap:Body><nfeResultMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/${service}">${body}</nfeResultMsg></soap:Body></soap:Envelope>`;

const DOWN_TEXT = {
  '108': 'Serviço Paralisado Momentaneamente (curto prazo)',
  '109': 'Serviço Paralisado sem Previsão',
};
/** The answer of a service while SEFAZ declares itself down (its result element with cStat 108/109). */
function downAnswer(service: string, cStat: '108' | '109', tpAmb: string, cUF: string) {
  const root =
    {
      NFeAutorizacao4: 'retEnviNFe',
      NFeStatusServico4: 'retConsStatServ',
      NFeConsultaProtocolo4: 'retConsSitNFe',
      NFeRecepcaoEvento4: 'retEnvEvento',
      NFeInutilizacao4: 'retInutNFe',
    }[service] ?? 'retConsStatServ';
  return `<${root} xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><verAplic>FAKE-SEFAZ-1.0</verAplic><cStat>${cStat}</cStat><xMotivo>${DOWN_TEXT[cStat]}</xMotivo><cUF>${cUF}</cUF><dhRecbto>${now()}</dhRecbto></${root}>`;
}

/** Rejections the tests can force, with SEFAZ's texts (MOC 7.0 tabela de códigos). */
const FORCED_REJECTIONS: Record<string, string> = {
  '778': 'Rejeição: Informado NCM inexistente',
  '386': 'Rejeição: CFOP não permitido para NFC-e',
};

/**
 * NT 2025.002-RTC rules on the items' IBSCBS group (applied only when it is filled, as the NT says):
 * UB14-10 (1023) the cClassTrib must exist in the table (here the NFC-e codes of core's CLASS_TRIB_NFCE),
 * UB14-20 (1024) its first three digits are the CST, UB18-10 (1026) pIBSUF and UB56-10 (1037) pCBS are
 * the year's rates (2026: 0.10% and 0.90%), UB13-20 (1021) no gIBSCBS for a CST without it. The texts
 * are SEFAZ's as transcribed from the NT's rules table.
 */
function ibsCbsRejection(nfe: string): [string, string] | null {
  const year = Number((tag(nfe, 'dhEmi') ?? '').slice(0, 4));
  // Only the rates LC 214/2025 itself fixes for the year (2026's, 2027-2028's IBS) are checked here; a
  // rate set later (by resolution, the state's or município's law) is the issuer's to know.
  const ibsUf = lawRate(year, 'ibsUf');
  const cbs = lawRate(year, 'cbs');
  for (const group of nfe.match(/<IBSCBS>[\s\S]*?<\/IBSCBS>/g) ?? []) {
    const cst = tag(group, 'CST') ?? '';
    const cClassTrib = tag(group, 'cClassTrib') ?? '';
    if (!(cClassTrib in CLASS_TRIB_NFCE))
      return ['1023', 'Rejeição: Classificação Tributária do IBS/CBS inexistente'];
    if (cClassTrib.slice(0, 3) !== cst)
      return ['1024', 'Rejeição: Código de Classificação Tributária do IBS/CBS incompatível com o CST'];
    const hasGroup = group.includes('<gIBSCBS>');
    if (hasGroup && !cstHasTaxGroup(cst))
      return ['1021', 'Rejeição: Grupo de informações do IBS/CBS informado indevidamente'];
    if (!hasGroup) continue;
    if (ibsUf !== null && tag(group, 'pIBSUF') !== ibsCbsRateText(ibsUf))
      return ['1026', 'Rejeição: Alíquota do IBS da UF inválida'];
    if (cbs !== null && tag(group, 'pCBS') !== ibsCbsRateText(cbs))
      return ['1037', 'Rejeição: Alíquota da CBS inválida'];
  }
  return null;
}

let protocolSeq = 135_260_000_000_000;
const nextProtocol = () => String(++protocolSeq);

export async function startFakeSefaz(options: { port?: number; ca?: TestCa } = {}): Promise<FakeSefaz> {
  const ca = options.ca ?? makeTestCa();
  const serverCert = makeServerCert(ca);
  const sockets = new Set<Socket>();
  const keyCalls = new Map<string, number[]>();

  const fake: FakeSefaz = {
    url: '',
    port: 0,
    ca,
    caPem: ca.certPem,
    mode: 'ok',
    delayMs: 0,
    chaos: null,
    chaosCounts: { timeout: 0, error5xx: 0, lostAnswer: 0 },
    calls: {},
    notes: new Map(),
    forceNext: null,
    voids: [],
    declaredDown: null,
    epecs: new Map(),
    maxCallsPerKey: 20,
    epecStatus: ['107', 'Serviço em Operação'],
    goAway: async () => {},
    comeBack: async () => {},
    close: async () => {},
  };

  const clientCnpj = (socket: TLSSocket): { cnpj: string; pem: string } | null => {
    const peer = socket.getPeerCertificate(false);
    if (!peer?.raw) return null;
    const cert = forge.pki.certificateFromAsn1(
      forge.asn1.fromDer(forge.util.createBuffer(peer.raw.toString('binary'))),
    );
    const cn = String(cert.subject.getField('CN')?.value ?? '');
    return { cnpj: /:([0-9A-Z]{14})$/.exec(cn)?.[1] ?? '', pem: forge.pki.certificateToPem(cert) };
  };

  async function authorise(body: string, client: { cnpj: string; pem: string }, tpAmb: string) {
    const head = `<tpAmb>${tpAmb}</tpAmb><verAplic>FAKE-SEFAZ-1.0</verAplic>`;
    const lot = (cStat: string, xMotivo: string, cUF = '') =>
      `<retEnviNFe xmlns="${NFE_NS}" versao="4.00">${head}<cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><cUF>${cUF}</cUF><dhRecbto>${now()}</dhRecbto></retEnviNFe>`;
    const issue = await validateSchema(body, 'enviNFe_v4.00.xsd');
    if (issue) return lot('225', `Rejeição: Falha no Schema XML do lote de NFe [${issue.element}]`);
    const nfe = element(body, 'NFe') ?? '';
    if (!verifySignature(nfe, client.pem)) return lot('297', 'Rejeição: Assinatura difere do calculado');
    const key = (/Id="NFe([0-9]{6}[0-9A-Z]{12}[0-9]{26})"/.exec(nfe) ?? [])[1] ?? '';
    const cUF = key.slice(0, 2);
    const cnpj = tag(nfe, 'CNPJ') ?? '';
    const prot = (cStat: string, xMotivo: string, protocol: string | null) =>
      `<retEnviNFe xmlns="${NFE_NS}" versao="4.00">${head}<cStat>104</cStat><xMotivo>Lote processado</xMotivo><cUF>${cUF}</cUF><dhRecbto>${now()}</dhRecbto><protNFe versao="4.00"><infProt>${head}<chNFe>${key}</chNFe><dhRecbto>${now()}</dhRecbto>${protocol ? `<nProt>${protocol}</nProt>` : ''}<digVal>${tag(nfe, 'DigestValue')}</digVal><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo></infProt></protNFe></retEnviNFe>`;
    if (cnpj.slice(0, 8) !== client.cnpj.slice(0, 8))
      return lot('213', 'Rejeição: CNPJ-Base do Emitente difere do CNPJ-Base do Certificado Digital', cUF);
    // The key's own check digit, each character's ASCII code minus 48 (NT 2025.001, alphanumeric CNPJ).
    if (!isValidAccessKey(key))
      return lot('253', 'Rejeição: Digito Verificador da chave de acesso composta inválida', cUF);
    const recent = (keyCalls.get(key) ?? []).filter((t) => t > Date.now() - 60_000);
    recent.push(Date.now());
    keyCalls.set(key, recent);
    if (recent.length > fake.maxCallsPerKey) return lot('656', 'Rejeição: Consumo Indevido', cUF);
    const forced = fake.forceNext;
    fake.forceNext = null;
    const existing = fake.notes.get(key);
    if (existing || forced === '204')
      return prot('204', `Rejeição: Duplicidade de NF-e [nProt:${existing?.protocol ?? ''}]`, null);
    const series = Number(tag(nfe, 'serie'));
    const number = Number(tag(nfe, 'nNF'));
    const sameNumber = [...fake.notes.values()].find(
      (n) => n.cnpj === cnpj && n.series === series && n.number === number,
    );
    if (sameNumber || forced === '539')
      return prot(
        '539',
        `Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe: ${sameNumber?.key ?? ''}]`,
        null,
      );
    if (forced && FORCED_REJECTIONS[forced]) return prot(forced, FORCED_REJECTIONS[forced], null);
    // tpEmis 4 (EPEC): SEFAZ must hold the note's EPEC.
    if (key[34] === '4' && !fake.epecs.has(key))
      return prot('468', 'Rejeição: NF-e com Tipo Emissão = 4, sem EPEC correspondente', null);
    const reform = ibsCbsRejection(nfe);
    if (reform) return prot(reform[0], reform[1], null);
    if (fake.voids.some((v) => v.cnpj === cnpj && v.series === series && number >= v.from && number <= v.to))
      return prot('206', 'Rejeição: NF-e já está inutilizada na Base de dados da SEFAZ', null);
    const protocol = nextProtocol();
    fake.notes.set(key, {
      key,
      cnpj,
      series,
      number,
      protocol,
      canceled: false,
      digest: tag(nfe, 'DigestValue') ?? '',
    });
    return prot('100', 'Autorizado o uso da NF-e', protocol);
  }

  function query(body: string, tpAmb: string) {
    const key = tag(body, 'chNFe') ?? '';
    const note = fake.notes.get(key);
    const head = `<tpAmb>${tpAmb}</tpAmb><verAplic>FAKE-SEFAZ-1.0</verAplic>`;
    if (!note)
      return `<retConsSitNFe xmlns="${NFE_NS}" versao="4.00">${head}<cStat>217</cStat><xMotivo>Rejeição: NF-e não consta na base de dados da SEFAZ</xMotivo><cUF>${key.slice(0, 2)}</cUF><dhRecbto>${now()}</dhRecbto><chNFe>${key}</chNFe></retConsSitNFe>`;
    const [cStat, xMotivo] = note.canceled
      ? ['101', 'Cancelamento de NF-e homologado']
      : ['100', 'Autorizado o uso da NF-e'];
    return `<retConsSitNFe xmlns="${NFE_NS}" versao="4.00">${head}<cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><cUF>${key.slice(0, 2)}</cUF><dhRecbto>${now()}</dhRecbto><chNFe>${key}</chNFe><protNFe versao="4.00"><infProt>${head}<chNFe>${key}</chNFe><dhRecbto>${now()}</dhRecbto><nProt>${note.protocol}</nProt><digVal>${note.digest}</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe></retConsSitNFe>`;
  }

  async function event(body: string, client: { pem: string }, tpAmb: string) {
    const head = `<tpAmb>${tpAmb}</tpAmb><verAplic>FAKE-SEFAZ-1.0</verAplic>`;
    const lot = (cStat: string, xMotivo: string, inner = '') =>
      `<retEnvEvento xmlns="${NFE_NS}" versao="1.00"><idLote>${tag(body, 'idLote') ?? '0'}</idLote>${head}<cOrgao>${tag(body, 'cOrgao') ?? ''}</cOrgao><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo>${inner}</retEnvEvento>`;
    const issue = await validateSchema(body, 'envEventoCancNFe_v1.00.xsd');
    if (issue) return lot('225', `Rejeição: Falha no Schema XML [${issue.element}]`);
    const evt = element(body, 'evento') ?? '';
    if (!verifySignature(evt, client.pem)) return lot('297', 'Rejeição: Assinatura difere do calculado');
    const key = tag(evt, 'chNFe') ?? '';
    const note = fake.notes.get(key);
    const ret = (cStat: string, xMotivo: string, protocol: string | null) =>
      lot(
        '128',
        'Lote de Evento Processado',
        `<retEvento versao="1.00"><infEvento>${head}<cOrgao>${key.slice(0, 2)}</cOrgao><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><chNFe>${key}</chNFe><tpEvento>110111</tpEvento><nSeqEvento>1</nSeqEvento><dhRegEvento>${now()}</dhRegEvento>${protocol ? `<nProt>${protocol}</nProt>` : ''}</infEvento></retEvento>`,
      );
    if (!note) return ret('217', 'Rejeição: NF-e não consta na base de dados da SEFAZ', null);
    if (note.canceled) return ret('573', 'Rejeição: Duplicidade de Evento', null);
    if (tag(evt, 'nProt') !== note.protocol)
      return ret('222', 'Rejeição: Protocolo de Autorização de Uso difere do cadastrado', null);
    note.canceled = true;
    return ret('135', 'Evento registrado e vinculado a NF-e', nextProtocol());
  }

  /** SP's RecepcaoEPEC (NFC-e): the lot checked against PL_010's eventoEPEC_v1.00.xsd, signed by the client. */
  async function epec(body: string, client: { cnpj: string; pem: string }, tpAmb: string) {
    const head = `<tpAmb>${tpAmb}</tpAmb><verAplic>FAKE-SEFAZ-EPEC-1.0</verAplic>`;
    const lot = (cStat: string, xMotivo: string, inner = '') =>
      `<retEnvEvento xmlns="${NFE_NS}" versao="1.00"><idLote>${tag(body, 'idLote') ?? '0'}</idLote>${head}<cOrgao>${tag(body, 'cOrgao') ?? ''}</cOrgao><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo>${inner}</retEnvEvento>`;
    const issue = await validateSchema(body, 'eventoEPEC_v1.00.xsd');
    if (issue) return lot('225', `Rejeição: Falha no Schema XML [${issue.element}]`);
    if (!verifySignature(body, client.pem)) return lot('297', 'Rejeição: Assinatura difere do calculado');
    const key = tag(body, 'chNFe') ?? '';
    const ret = (cStat: string, xMotivo: string, protocol: string | null) =>
      lot(
        '128',
        'Lote de Evento Processado',
        `<retEvento versao="1.00"><infEvento>${head}<cOrgao>${key.slice(0, 2)}</cOrgao><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><chNFe>${key}</chNFe><tpEvento>110140</tpEvento><xEvento>EPEC</xEvento><nSeqEvento>1</nSeqEvento><dhRegEvento>${now()}</dhRegEvento>${protocol ? `<nProt>${protocol}</nProt>` : ''}</infEvento></retEvento>`,
      );
    if ((tag(body, 'CNPJ') ?? '').slice(0, 8) !== client.cnpj.slice(0, 8))
      return ret('213', 'Rejeição: CNPJ-Base do Autor difere do CNPJ-Base do Certificado Digital', null);
    if (key[34] !== '4')
      return ret('489', 'Rejeição: Tipo de emissão da chave de acesso difere de 4 (EPEC)', null);
    const sameNumber = [...fake.epecs.keys()].find((k) => k !== key && k.slice(0, 34) === key.slice(0, 34));
    if (sameNumber)
      return ret('485', 'Rejeição: Duplicidade de numeração do EPEC (Modelo, CNPJ, Série e Número)', null);
    const known = fake.epecs.get(key);
    if (known) return ret('136', 'Evento registrado, mas não vinculado a NF-e', known);
    const protocol = nextProtocol();
    fake.epecs.set(key, protocol);
    // SEFAZ-SP's answer to an NFC-e EPEC (sped-nfe docs/metodos/EPECNFCe_SP.md), not the national 124.
    return ret('136', 'Evento registrado, mas não vinculado a NF-e', protocol);
  }

  async function voidNumbers(body: string, client: { pem: string }, tpAmb: string) {
    const head = `<tpAmb>${tpAmb}</tpAmb><verAplic>FAKE-SEFAZ-1.0</verAplic>`;
    const ret = (cStat: string, xMotivo: string, protocol: string | null) =>
      `<retInutNFe xmlns="${NFE_NS}" versao="4.00"><infInut>${head}<cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><cUF>${tag(body, 'cUF') ?? ''}</cUF>${protocol ? `<dhRecbto>${now()}</dhRecbto><nProt>${protocol}</nProt>` : ''}</infInut></retInutNFe>`;
    const issue = await validateSchema(body, 'inutNFe_v4.00.xsd');
    if (issue) return ret('225', `Rejeição: Falha no Schema XML [${issue.element}]`, null);
    if (!verifySignature(body, client.pem))
      return ret('297', 'Rejeição: Assinatura difere do calculado', null);
    const cnpj = tag(body, 'CNPJ') ?? '';
    const series = Number(tag(body, 'serie'));
    const from = Number(tag(body, 'nNFIni'));
    const to = Number(tag(body, 'nNFFin'));
    const used = [...fake.notes.values()].some(
      (n) => n.cnpj === cnpj && n.series === series && n.number >= from && n.number <= to,
    );
    if (used) return ret('241', 'Rejeição: Um número da faixa já foi utilizado', null);
    if (fake.voids.some((v) => v.cnpj === cnpj && v.series === series && from <= v.to && to >= v.from))
      return ret('256', 'Rejeição: Uma NF-e da faixa já está inutilizada na Base de dados da SEFAZ', null);
    fake.voids.push({ cnpj, series, from, to });
    return ret('102', 'Inutilização de número homologado', nextProtocol());
  }

  /**
   * SEFAZ-SP's EPEC NFC-e status service (EPECStatusServico, operation NfeStatusServico2 in sped-nfe's
   * wsnfe_4.00_mod65.xml): the consStatServ request checked against its schema, answered with
   * `fake.epecStatus` (107 in operation; another code: not active, as SP's production service is until
   * SEFAZ-SP turns it on). It stays up when the normal services are declared down.
   */
  async function epecStatus(body: string, tpAmb: string) {
    const cUF = tag(body, 'cUF') ?? '';
    const ret = (cStat: string, xMotivo: string) =>
      `<retConsStatServ xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><verAplic>FAKE-SEFAZ-EPEC-1.0</verAplic><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo><cUF>${cUF}</cUF><dhRecbto>${now()}</dhRecbto></retConsStatServ>`;
    const issue = await validateSchema(body, 'consStatServ_v4.00.xsd');
    if (issue) return ret('215', `Rejeição: Falha no schema XML [${issue.element}]`);
    if (cUF !== String(UF_CODES.SP))
      return ret('226', 'Rejeição: Código da UF do Emitente diverge da UF autorizadora');
    const [cStat, xMotivo] = fake.epecStatus;
    return ret(cStat, xMotivo);
  }

  const server: Server = createServer(
    {
      key: serverCert.keyPem,
      cert: serverCert.certPem,
      ca: ca.certPem,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const service = (req.url ?? '').split('/').pop() ?? '';
        fake.calls[service] = (fake.calls[service] ?? 0) + 1;
        const roll = Math.random();
        const chaos = fake.chaos;
        let chaotic: keyof SefazChaos | null = null;
        if (chaos) {
          if (roll < chaos.timeout) chaotic = 'timeout';
          else if (roll < chaos.timeout + chaos.error5xx) chaotic = 'error5xx';
          else if (roll < chaos.timeout + chaos.error5xx + chaos.lostAnswer) chaotic = 'lostAnswer';
          if (chaotic) fake.chaosCounts[chaotic]++;
        }
        if (fake.mode === 'timeout' || chaotic === 'timeout') return; // held until the client gives up
        if (fake.mode === 'slow' || fake.delayMs > 0)
          await new Promise((r) => setTimeout(r, fake.delayMs || 10_000));
        if (fake.mode === 'error5xx' || chaotic === 'error5xx') {
          res.writeHead(500, { 'content-type': 'application/soap+xml; charset=utf-8' });
          return res.end(
            `<soap:Envelope xmlns:soap="${SOAP_NS}"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="pt-BR">Erro interno</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>`,
          );
        }
        const client = clientCnpj(req.socket as TLSSocket);
        const body = soapBody(Buffer.concat(chunks).toString('utf8'));
        const tpAmb = tag(body, 'tpAmb') ?? '2';
        let answer: string;
        if (!client)
          answer = '<cStat>280</cStat><xMotivo>Rejeição: Certificado Transmissor inválido</xMotivo>';
        else if (service === 'RecepcaoEPEC') answer = await epec(body, client, tpAmb);
        else if (service === 'EPECStatusServico') answer = await epecStatus(body, tpAmb);
        else if (fake.declaredDown && service.startsWith('NFe'))
          answer = downAnswer(service, fake.declaredDown, tpAmb, tag(body, 'cUF') ?? '');
        else if (service === 'NFeAutorizacao4') answer = await authorise(body, client, tpAmb);
        else if (service === 'NFeConsultaProtocolo4') answer = query(body, tpAmb);
        else if (service === 'NFeStatusServico4')
          answer = `<retConsStatServ xmlns="${NFE_NS}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><verAplic>FAKE-SEFAZ-1.0</verAplic><cStat>107</cStat><xMotivo>Serviço em Operação</xMotivo><cUF>${tag(body, 'cUF') ?? UF_CODES.SP}</cUF><dhRecbto>${now()}</dhRecbto></retConsStatServ>`;
        else if (service === 'NFeRecepcaoEvento4') answer = await event(body, client, tpAmb);
        else if (service === 'NFeInutilizacao4') answer = await voidNumbers(body, client, tpAmb);
        else {
          res.writeHead(404);
          return res.end();
        }
        // Processed, but the answer never reaches the client: the connection drops.
        if (chaotic === 'lostAnswer') return req.socket.destroy();
        res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' });
        res.end(envelope(service, answer));
      });
    },
  );
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listen(options.port ?? 0);
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `https://127.0.0.1:${fake.port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  fake.goAway = stop;
  fake.comeBack = () => listen(fake.port);
  fake.close = stop;
  return fake;
}
