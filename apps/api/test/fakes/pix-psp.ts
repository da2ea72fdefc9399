import { createHash, randomBytes } from 'node:crypto';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { crc16 } from '@balcao/core/pix';
import forge from 'node-forge';

/**
 * A local PSP that follows the Banco Central's standard Pix API v2 (bacen/pix-api openapi.yaml 2.9.0):
 * - HTTPS with a client certificate required and checked against a local CA the tests make
 *   (`makePixCerts`, node-forge): no certificate or another CA's = the handshake fails, as at a PSP;
 * - POST /oauth/token (client credentials, Basic auth, form or JSON body) -> {access_token, expires_in};
 * - PUT/GET/PATCH /v2/cob/{txid}: txid [a-zA-Z0-9]{26,35}, calendario.expiracao, valor.original "0.00",
 *   chave; answers CobGerada with loc/location/pixCopiaECola (the BR Code points at the location);
 *   an existing txid on PUT is a 400 CobOperacaoInvalida (problem+json), as PSPs answer;
 * - PUT /v2/webhook/{chave} {webhookUrl}; each Pix of a txid is posted to `{webhookUrl}/pix` as
 *   {pix:[...]}, retried on failure, and, when configured, repeated and reordered;
 * - GET /v2/pix?inicio&fim (paged), GET /v2/pix/{e2eid};
 * - PUT/GET /v2/pix/{e2eid}/devolucao/{id}: EM_PROCESSAMENTO, then DEVOLVIDO or NAO_REALIZADO
 *   (`refuseRefunds`), notified through the webhook as the standard says.
 * Errors are problem+json (type https://pix.bcb.gov.br/api/v2/error/...).
 * A plain-HTTP side (the customer's bank app): GET /pagar shows a form, POST /__fake/pay pays a
 * BR Code (its location) or a txid, with an amount that may differ from the charge's.
 */

export type PixCerts = {
  caPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  /** The client certificate and key as a .pfx (base64), passphrase `pfxPassphrase`. */
  clientPfxBase64: string;
  pfxPassphrase: string;
  /** A client certificate from another CA (refused). */
  strangerCertPem: string;
  strangerKeyPem: string;
};

function keyPair() {
  return forge.pki.rsa.generateKeyPair({ bits: 1024, e: 0x10001 });
}

function certificate(
  subjectCn: string,
  keys: forge.pki.rsa.KeyPair,
  issuer: { cert: forge.pki.Certificate | null; key: forge.pki.rsa.PrivateKey },
  extensions: object[],
) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  const subject = [{ name: 'commonName', value: subjectCn }];
  cert.setSubject(subject);
  cert.setIssuer(issuer.cert ? issuer.cert.subject.attributes : subject);
  cert.setExtensions(extensions);
  cert.sign(issuer.key, forge.md.sha256.create());
  return cert;
}

/** A local CA, the PSP's server certificate (localhost, 127.0.0.1) and a client certificate it signed. */
export function makePixCerts(): PixCerts {
  const caKeys = keyPair();
  const ca = certificate('Balcao Test PSP CA', caKeys, { cert: null, key: caKeys.privateKey }, [
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  const serverKeys = keyPair();
  const server = certificate('localhost', serverKeys, { cert: ca, key: caKeys.privateKey }, [
    { name: 'basicConstraints', cA: false },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  const clientKeys = keyPair();
  const client = certificate('loja-demo', clientKeys, { cert: ca, key: caKeys.privateKey }, [
    { name: 'basicConstraints', cA: false },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
  const strangerKeys = keyPair();
  const stranger = certificate('stranger', strangerKeys, { cert: null, key: strangerKeys.privateKey }, [
    { name: 'extKeyUsage', clientAuth: true },
  ]);
  const pfxPassphrase = 'senha-do-pfx';
  const p12 = forge.pkcs12.toPkcs12Asn1(clientKeys.privateKey, [client], pfxPassphrase, {
    algorithm: '3des',
  });
  return {
    caPem: forge.pki.certificateToPem(ca),
    serverCertPem: forge.pki.certificateToPem(server),
    serverKeyPem: forge.pki.privateKeyToPem(serverKeys.privateKey),
    clientCertPem: forge.pki.certificateToPem(client),
    clientKeyPem: forge.pki.privateKeyToPem(clientKeys.privateKey),
    clientPfxBase64: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary').toString('base64'),
    pfxPassphrase,
    strangerCertPem: forge.pki.certificateToPem(stranger),
    strangerKeyPem: forge.pki.privateKeyToPem(strangerKeys.privateKey),
  };
}

type Devolucao = {
  id: string;
  rtrId: string;
  valor: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  motivo?: string;
};

export type FakePix = {
  endToEndId: string;
  txid: string;
  valor: string;
  horario: string;
  infoPagador?: string;
  devolucoes?: Devolucao[];
};

export type FakeCob = {
  txid: string;
  revisao: number;
  calendario: { criacao: string; expiracao: number };
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  loc: { id: number; location: string; tipoCob: 'cob'; criacao: string };
  location: string;
  pixCopiaECola: string;
  pix: FakePix[];
};

export type FakePsp = {
  /** The API root the adapter is given (https://127.0.0.1:port/v2) and the token URL. */
  apiUrl: string;
  tokenUrl: string;
  /** The customer's bank app (plain HTTP): GET /pagar, POST /__fake/pay. */
  payUrl: string;
  clientId: string;
  clientSecret: string;
  cobs: Map<string, FakeCob>;
  pix: FakePix[];
  webhooks: Map<string, string>;
  /** Every webhook delivery attempt: its body and the status our API answered (0 = unreachable). */
  deliveries: { url: string; body: string; status: number }[];
  tokensIssued: number;
  /** Webhook behaviour: how many times each notification is posted, reversed order, dropped. */
  webhook: { copies: number; reverse: boolean; drop: boolean; retryMs: number; maxAttempts: number };
  /** Refunds end NAO_REALIZADO with this motivo when set. */
  refuseRefunds: string | null;
  /** How long a refund stays EM_PROCESSAMENTO before its final status. */
  refundDelayMs: number;
  /** Pays a charge as the customer's bank would (amount defaults to the charge's). */
  pay(txid: string, valor?: string, at?: Date): Promise<FakePix>;
  /** Waits for every webhook delivery under way. */
  settled(): Promise<void>;
  close(): Promise<void>;
};

export type FakePspOptions = {
  port?: number;
  payPort?: number;
  certs: PixCerts;
  clientId?: string;
  clientSecret?: string;
  tokenTtlSeconds?: number;
  /** The ISPB-like prefix of end-to-end ids. */
  ispb?: string;
  /** Delivers a webhook post (tests: in-process inject); HTTP fetch otherwise. Answers the status. */
  deliver?: (url: string, body: string) => Promise<number>;
};

const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/';

function problem(
  res: ServerResponse,
  status: number,
  type: string,
  title: string,
  detail: string,
  violacoes?: object[],
) {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(
    JSON.stringify({ type: `${PROBLEM}${type}`, title, status, detail, ...(violacoes ? { violacoes } : {}) }),
  );
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** The dynamic BR Code: tag 26 carries the location (sub-tag 25), no amount, txid `***` (Manual do BR Code). */
export function dynamicBrCode(location: string, merchant = 'LOJA DEMO', city = 'SAO PAULO'): string {
  const body =
    field('00', '01') +
    field('01', '12') +
    field('26', field('00', 'br.gov.bcb.pix') + field('25', location)) +
    field('52', '0000') +
    field('53', '986') +
    field('58', 'BR') +
    field('59', merchant) +
    field('60', city) +
    field('62', field('05', '***')) +
    '6304';
  return body + crc16(body);
}

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const VALOR = /^\d{1,10}\.\d{2}$/;

export async function startFakePsp(options: FakePspOptions): Promise<FakePsp> {
  const clientId = options.clientId ?? 'Client_Id_fake';
  const clientSecret = options.clientSecret ?? 'Client_Secret_fake';
  const ttl = options.tokenTtlSeconds ?? 3600;
  const ispb = options.ispb ?? '12345678';
  const tokens = new Map<string, number>();
  const inflight = new Set<Promise<void>>();
  let locSeq = 0;
  let e2eSeq = 0;
  let host = '127.0.0.1';

  const state: Omit<FakePsp, 'apiUrl' | 'tokenUrl' | 'payUrl' | 'pay' | 'settled' | 'close'> = {
    clientId,
    clientSecret,
    cobs: new Map(),
    pix: [],
    webhooks: new Map(),
    deliveries: [],
    tokensIssued: 0,
    webhook: { copies: 1, reverse: false, drop: false, retryMs: 200, maxAttempts: 5 },
    refuseRefunds: null,
    refundDelayMs: 50,
  };

  const _expired = (cob: FakeCob, at = Date.now()) =>
    Date.parse(cob.calendario.criacao) + cob.calendario.expiracao * 1000 < at;

  async function deliver(url: string, body: string) {
    for (let attempt = 0; attempt < state.webhook.maxAttempts; attempt++) {
      let status = 0;
      try {
        if (options.deliver) status = await options.deliver(url, body);
        else {
          const response = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          status = response.status;
          await response.body?.cancel().catch(() => {});
        }
      } catch {
        status = 0;
      }
      state.deliveries.push({ url, body, status });
      if (status >= 200 && status < 300) return;
      await new Promise((r) => setTimeout(r, state.webhook.retryMs * (attempt + 1)));
    }
  }

  /** Posts Pix to the webhook of the charge's key: copies and order as configured. */
  function notify(chave: string, pixes: FakePix[]) {
    const url = state.webhooks.get(chave);
    if (!url || state.webhook.drop) return;
    const target = `${url.replace(/\/+$/, '')}/pix`;
    const bodies: string[] = [];
    for (let i = 0; i < state.webhook.copies; i++) bodies.push(JSON.stringify({ pix: pixes }));
    const run = (async () => {
      const order = state.webhook.reverse ? [...bodies].reverse() : bodies;
      await Promise.all(
        order.map((b, i) => new Promise((r) => setTimeout(r, i * 5)).then(() => deliver(target, b))),
      );
    })();
    inflight.add(run);
    run.finally(() => inflight.delete(run));
  }

  async function pay(txid: string, valor?: string, at = new Date()): Promise<FakePix> {
    const cob = state.cobs.get(txid);
    if (!cob) throw new Error(`no cob ${txid}`);
    if (cob.status !== 'ATIVA' && cob.status !== 'CONCLUIDA') throw new Error(`cob ${txid} is ${cob.status}`);
    e2eSeq++;
    const endToEndId =
      `E${ispb}${at.toISOString().replace(/\D/g, '').slice(0, 12)}${randomBytes(6).toString('hex')}${String(e2eSeq).padStart(7, '0')}`
        .slice(0, 32)
        .padEnd(32, '0');
    const pix: FakePix = {
      endToEndId,
      txid,
      valor: valor ?? cob.valor.original,
      horario: at.toISOString(),
      infoPagador: 'Pago no app do banco',
    };
    state.pix.push(pix);
    // A paid charge is CONCLUIDA (the standard); an expired one still takes the money in this fake, as
    // a late payment of a stale QR reaches the shop's account and must be reconciled.
    cob.status = 'CONCLUIDA';
    cob.pix.push(pix);
    notify(cob.chave, [pix]);
    return pix;
  }

  function checkToken(req: IncomingMessage, res: ServerResponse): boolean {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const until = bearer ? tokens.get(bearer) : undefined;
    if (!until || until < Date.now()) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_token', error_description: 'token inválido ou expirado' }));
      return false;
    }
    return true;
  }

  function newCob(
    txid: string,
    body: {
      calendario?: { expiracao?: number };
      valor?: { original?: string };
      chave?: string;
      solicitacaoPagador?: string;
    },
  ): FakeCob {
    locSeq++;
    const now = new Date().toISOString();
    const location = `${host}:${payPortOf()}/qr/v2/${createHash('sha1').update(`${txid}${locSeq}`).digest('hex')}`;
    return {
      txid,
      revisao: 0,
      calendario: { criacao: now, expiracao: body.calendario?.expiracao ?? 86400 },
      status: 'ATIVA',
      valor: { original: body.valor?.original ?? '0.00' },
      chave: body.chave ?? '',
      ...(body.solicitacaoPagador ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
      loc: { id: locSeq, location, tipoCob: 'cob', criacao: now },
      location,
      pixCopiaECola: dynamicBrCode(location),
      pix: [],
    };
  }

  const cobView = (cob: FakeCob) => {
    const { pix, ...rest } = cob;
    return pix.length ? cob : rest;
  };

  function finishRefund(pix: FakePix, dev: Devolucao, chave: string) {
    const t = setTimeout(() => {
      if (state.refuseRefunds) {
        dev.status = 'NAO_REALIZADO';
        dev.motivo = state.refuseRefunds;
      } else {
        dev.status = 'DEVOLVIDO';
        dev.horario.liquidacao = new Date().toISOString();
      }
      notify(chave, [pix]);
    }, state.refundDelayMs);
    t.unref?.();
  }

  async function api(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'https://fake');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const raw = await readBody(req);

    if (method === 'POST' && path === '/oauth/token') {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
      const grant = (req.headers['content-type'] ?? '').includes('json')
        ? (JSON.parse(raw || '{}') as { grant_type?: string }).grant_type
        : new URLSearchParams(raw).get('grant_type');
      if (id !== clientId || secret !== clientSecret)
        return json(res, 401, { error: 'invalid_client', error_description: 'Credenciais inválidas' });
      if (grant !== 'client_credentials') return json(res, 400, { error: 'unsupported_grant_type' });
      const token = randomBytes(16).toString('hex');
      tokens.set(token, Date.now() + ttl * 1000);
      state.tokensIssued++;
      return json(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: ttl,
        scope: 'cob.write cob.read pix.read pix.write webhook.write webhook.read',
      });
    }
    if (!path.startsWith('/v2/'))
      return problem(res, 404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
    if (!checkToken(req, res)) return;
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return problem(res, 400, 'RequisicaoInvalida', 'Requisição inválida.', 'O corpo não é JSON.');
    }

    const cobMatch = /^\/v2\/cob\/([^/]+)$/.exec(path);
    if (cobMatch) {
      const txid = decodeURIComponent(cobMatch[1]);
      const cob = state.cobs.get(txid);
      if (method === 'GET') {
        if (!cob) return problem(res, 404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
        return json(res, 200, cobView(cob));
      }
      if (method === 'PUT') {
        const b = body as {
          calendario?: { expiracao?: number };
          valor?: { original?: string };
          chave?: string;
        };
        const violacoes: object[] = [];
        if (!TXID.test(txid))
          violacoes.push({ razao: 'O campo txid não respeita o _schema_.', propriedade: 'cob.txid' });
        if (!b.valor?.original || !VALOR.test(b.valor.original))
          violacoes.push({
            razao: 'O campo cob.valor.original não respeita o _schema_.',
            propriedade: 'cob.valor.original',
          });
        if (!b.chave)
          violacoes.push({ razao: 'O campo cob.chave não respeita o _schema_.', propriedade: 'cob.chave' });
        if (violacoes.length)
          return problem(
            res,
            400,
            'CobOperacaoInvalida',
            'Cobrança inválida.',
            'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.',
            violacoes,
          );
        if (cob)
          return problem(
            res,
            400,
            'CobOperacaoInvalida',
            'Cobrança inválida.',
            'Já existe uma cobrança com o txid informado.',
            [{ razao: 'txid já utilizado', propriedade: 'cob.txid', valor: txid }],
          );
        const created = newCob(txid, b);
        state.cobs.set(txid, created);
        return json(res, 201, cobView(created));
      }
      if (method === 'PATCH') {
        if (!cob) return problem(res, 404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
        if (cob.status !== 'ATIVA')
          return problem(
            res,
            400,
            'CobOperacaoInvalida',
            'Cobrança inválida.',
            `A cobrança está ${cob.status} e não pode ser alterada.`,
          );
        const b = body as {
          status?: string;
          valor?: { original?: string };
          calendario?: { expiracao?: number };
        };
        if (b.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') cob.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
        if (b.valor?.original) cob.valor.original = b.valor.original;
        if (b.calendario?.expiracao) cob.calendario.expiracao = b.calendario.expiracao;
        cob.revisao++;
        return json(res, 200, cobView(cob));
      }
    }
    const hookMatch = /^\/v2\/webhook\/([^/]+)$/.exec(path);
    if (hookMatch) {
      const chave = decodeURIComponent(hookMatch[1]);
      if (method === 'PUT') {
        const webhookUrl = (body as { webhookUrl?: string }).webhookUrl;
        if (!webhookUrl || !/^https?:\/\//.test(webhookUrl))
          return problem(
            res,
            400,
            'WebhookOperacaoInvalida',
            'Webhook inválido.',
            'A requisição busca criar um webhook sem respeitar o _schema_ ou, ainda, com sentido semanticamente inválido.',
            [{ razao: 'webhookUrl inválida', propriedade: 'webhookUrl' }],
          );
        state.webhooks.set(chave, webhookUrl);
        res.writeHead(200);
        return res.end();
      }
      if (method === 'GET') {
        const webhookUrl = state.webhooks.get(chave);
        if (!webhookUrl)
          return problem(res, 404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
        return json(res, 200, { webhookUrl, chave, criacao: new Date().toISOString() });
      }
    }
    const devMatch = /^\/v2\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(path);
    if (devMatch) {
      const e2e = decodeURIComponent(devMatch[1]);
      const id = decodeURIComponent(devMatch[2]);
      const pix = state.pix.find((p) => p.endToEndId === e2e);
      if (!pix) return problem(res, 404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
      const existing = pix.devolucoes?.find((d) => d.id === id);
      if (method === 'GET') {
        if (!existing)
          return problem(res, 404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
        return json(res, 200, existing);
      }
      if (method === 'PUT') {
        if (existing) return json(res, 201, existing);
        const valor = (body as { valor?: string }).valor;
        const already = (pix.devolucoes ?? [])
          .filter((d) => d.status !== 'NAO_REALIZADO')
          .reduce((s, d) => s + Number(d.valor), 0);
        if (!valor || !VALOR.test(valor) || Number(valor) + already > Number(pix.valor) + 1e-9)
          return problem(
            res,
            400,
            'DevolucaoOperacaoInvalida',
            'Devolução inválida.',
            'A soma dos valores de todas as devoluções não pode ultrapassar o valor total do Pix.',
            [{ razao: 'valor', propriedade: 'valor', valor: valor ?? '' }],
          );
        const dev: Devolucao = {
          id,
          rtrId: `D${ispb}${Date.now()}${randomBytes(4).toString('hex')}`.slice(0, 32).padEnd(32, '0'),
          valor,
          horario: { solicitacao: new Date().toISOString() },
          status: 'EM_PROCESSAMENTO',
        };
        pix.devolucoes = [...(pix.devolucoes ?? []), dev];
        const cob = state.cobs.get(pix.txid);
        finishRefund(pix, dev, cob?.chave ?? '');
        return json(res, 201, dev);
      }
    }
    const pixMatch = /^\/v2\/pix\/([^/]+)$/.exec(path);
    if (pixMatch && method === 'GET') {
      const pix = state.pix.find((p) => p.endToEndId === decodeURIComponent(pixMatch[1]));
      if (!pix) return problem(res, 404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
      return json(res, 200, pix);
    }
    if (path === '/v2/pix' && method === 'GET') {
      const inicio = Date.parse(url.searchParams.get('inicio') ?? '');
      const fim = Date.parse(url.searchParams.get('fim') ?? '');
      if (Number.isNaN(inicio) || Number.isNaN(fim))
        return problem(
          res,
          400,
          'ConsultaInvalida',
          'Consulta inválida.',
          'inicio e fim são obrigatórios (RFC 3339).',
        );
      const page = Number(url.searchParams.get('paginacao.paginaAtual') ?? 0);
      const size = Number(url.searchParams.get('paginacao.itensPorPagina') ?? 100);
      const all = state.pix.filter((p) => Date.parse(p.horario) >= inicio && Date.parse(p.horario) <= fim);
      return json(res, 200, {
        parametros: {
          inicio: new Date(inicio).toISOString(),
          fim: new Date(fim).toISOString(),
          paginacao: {
            paginaAtual: page,
            itensPorPagina: size,
            quantidadeDePaginas: Math.max(1, Math.ceil(all.length / size)),
            quantidadeTotalDeItens: all.length,
          },
        },
        pix: all.slice(page * size, page * size + size),
      });
    }
    return problem(res, 404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
  }

  const apiServer = createHttpsServer(
    {
      key: options.certs.serverKeyPem,
      cert: options.certs.serverCertPem,
      ca: options.certs.caPem,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      if (!(req.socket as TLSSocket).authorized)
        return problem(res, 403, 'AcessoNegado', 'Acesso Negado', 'Certificado do cliente não reconhecido.');
      api(req, res).catch((error) => problem(res, 500, 'ErroInterno', 'Erro interno', String(error)));
    },
  );

  const PAGE = (
    message = '',
  ) => `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Banco do cliente (fake)</title></head>
<body style="font-family:sans-serif;max-width:480px;margin:2rem auto">
<h1>Pagar com Pix</h1>
<form method="post" action="/__fake/pay">
<label>Pix copia e cola<br><textarea name="brcode" rows="5" style="width:100%"></textarea></label><br>
<label>Valor (opcional)<br><input name="valor" placeholder="10.00"></label><br><br>
<button type="submit">Pagar</button>
</form><p role="status">${message}</p></body></html>`;

  const payServer: Server = createHttpServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/pagar') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(PAGE());
    }
    if (req.method === 'POST' && url.pathname === '/__fake/pay') {
      const raw = await readBody(req);
      const form = (req.headers['content-type'] ?? '').includes('json')
        ? (JSON.parse(raw || '{}') as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(raw));
      const text = (form.brcode ?? '').trim();
      const txid =
        form.txid ??
        [...state.cobs.values()].find((c) => text && (text === c.pixCopiaECola || text.includes(c.location)))
          ?.txid;
      const html = (req.headers.accept ?? '').includes('text/html');
      try {
        if (!txid) throw new Error('QR não reconhecido');
        const pix = await pay(txid, form.valor?.trim() || undefined);
        if (html) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(PAGE(`Pix enviado: R$ ${pix.valor.replace('.', ',')}`));
        }
        return json(res, 200, pix);
      } catch (error) {
        if (html) {
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(PAGE(`Não foi possível pagar: ${(error as Error).message}`));
        }
        return json(res, 400, { error: (error as Error).message });
      }
    }
    if (req.method === 'GET' && url.pathname === '/__fake/state')
      return json(res, 200, {
        cobs: [...state.cobs.values()],
        pix: state.pix,
        webhooks: Object.fromEntries(state.webhooks),
      });
    res.writeHead(404);
    res.end();
  });

  await new Promise<void>((r) => apiServer.listen(options.port ?? 0, '127.0.0.1', r));
  await new Promise<void>((r) => payServer.listen(options.payPort ?? 0, '127.0.0.1', r));
  const apiPort = (apiServer.address() as AddressInfo).port;
  const payPort = (payServer.address() as AddressInfo).port;
  function payPortOf() {
    return payPort;
  }
  host = '127.0.0.1';

  const fake = state as FakePsp;
  fake.apiUrl = `https://localhost:${apiPort}/v2`;
  fake.tokenUrl = `https://localhost:${apiPort}/oauth/token`;
  fake.payUrl = `http://127.0.0.1:${payPort}`;
  fake.pay = pay;
  fake.settled = async () => {
    while (inflight.size) await Promise.all([...inflight]);
  };
  fake.close = async () => {
    apiServer.closeAllConnections?.();
    payServer.closeAllConnections?.();
    await new Promise((r) => apiServer.close(r));
    await new Promise((r) => payServer.close(r));
  };
  return fake;
}
