import { createHash } from 'node:crypto';
import { logRemoteError, type OutboundTls, outboundFetch } from '../../lib/outbound.ts';

/**
 * The adapter of the Banco Central's standard Pix API v2 (bacen/pix-api openapi.yaml 2.9.0, issue 33):
 * OAuth2 client credentials over mutual TLS with the PSP's certificate, then
 * PUT/GET/PATCH /cob/{txid}, PUT /webhook/{chave}, GET /pix, GET /pix/{e2eid},
 * PUT/GET /pix/{e2eid}/devolucao/{id}. Errors are the standard's `application/problem+json`
 * (`Problema`: type, title, status, detail, violacoes[]). The PSP is the server's configuration
 * (catalogue.ts, docs/integrations/pix-api.md): where its API lives, its token URL, the scopes it
 * wants, how its token endpoint reads the grant (RFC 6749 form or Efí's JSON; Basic auth or the
 * client in the body) and what every call carries besides the token (BB's application key).
 */

export type PspConfig = {
  /** The API's root, the paths below are appended: `https://pix.api.efipay.com.br/v2`. */
  apiUrl: string;
  /** The OAuth2 token endpoint (full URL): `https://pix.api.efipay.com.br/oauth/token`. */
  tokenUrl: string;
  /** Space-separated scopes; '' sends none (the PSP grants what the application was given). */
  scopes: string;
  /** 'form' (RFC 6749, most PSPs) or 'json' (Efí's documented body). */
  tokenFormat: 'form' | 'json';
  /** Basic auth (RFC 6749 2.3.1), client id and secret in the body, or the client id alone (mTLS). */
  tokenAuth: 'basic' | 'body' | 'client-id';
  /** Query parameters every API call carries (BB: gw-dev-app-key). */
  query?: Record<string, string>;
  /** Headers every API call carries (Sicoob: client_id). */
  headers?: Record<string, string>;
  clientId: string;
  clientSecret: string;
  tls: OutboundTls;
};

/** The standard's Problema (RFC 7807). */
export type PspProblem = {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  violacoes?: { razao?: string; propriedade?: string; valor?: string }[];
};

/** The PSP answered, with an error status (its problem+json, or what it sent). */
export class PspError extends Error {
  constructor(
    readonly status: number,
    readonly problem: PspProblem,
    readonly step: 'token' | 'api',
  ) {
    super(`Pix PSP ${step} answered ${status}: ${problem.title ?? ''}`);
    this.name = 'PspError';
  }
}

/** The PSP could not be reached (refused address, TLS handshake, timeout, connection). */
export class PspUnreachable extends Error {
  constructor(
    readonly step: 'token' | 'api',
    readonly reason: string,
  ) {
    super(`Pix PSP ${step} unreachable: ${reason}`);
    this.name = 'PspUnreachable';
  }
}

export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export type PspDevolucao = {
  id: string;
  rtrId: string;
  valor: string;
  horario: { solicitacao?: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  motivo?: string;
};

export type PspPix = {
  endToEndId: string;
  txid?: string;
  valor: string;
  horario: string;
  infoPagador?: string;
  devolucoes?: PspDevolucao[];
};

export type CobSolicitada = {
  calendario: { expiracao: number };
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  devedor?: { cpf?: string; cnpj?: string; nome: string };
};

export type CobGerada = {
  txid: string;
  revisao: number;
  calendario: { criacao: string; expiracao: number };
  status: CobStatus;
  valor: { original: string };
  chave: string;
  loc?: { id: number; location: string; tipoCob: string };
  location?: string;
  pixCopiaECola?: string;
  pix?: PspPix[];
};

export type PixConsultados = {
  parametros: {
    inicio: string;
    fim: string;
    paginacao: { paginaAtual: number; itensPorPagina: number; quantidadeDePaginas: number };
  };
  pix: PspPix[];
};

const TIMEOUT_MS = 10_000;
/** Renew a token this long before the PSP says it ends. */
const TOKEN_MARGIN_MS = 60_000;

type CachedToken = { token: string; expiresAt: number };
/** Tokens per credential (hash of token URL, client id and secret): one per PSP account, in this process. */
const tokens = new Map<string, CachedToken>();

const credentialKey = (c: PspConfig) =>
  createHash('sha256').update(`${c.tokenUrl}\n${c.clientId}\n${c.clientSecret}`).digest('hex');

/** Forgets every cached token (tests). */
export function clearPspTokens(): void {
  tokens.clear();
}

async function send(
  step: 'token' | 'api',
  url: string,
  init: RequestInit & { tls?: OutboundTls },
): Promise<Response> {
  try {
    return await outboundFetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new PspUnreachable(step, cause?.code ?? cause?.message ?? (error as Error).message);
  }
}

async function problemOf(response: Response): Promise<PspProblem> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as PspProblem;
    return typeof body === 'object' && body ? body : { status: response.status };
  } catch {
    return { status: response.status, detail: text.slice(0, 200) };
  }
}

async function token(config: PspConfig, fresh = false): Promise<string> {
  const key = credentialKey(config);
  const cached = tokens.get(key);
  if (!fresh && cached && cached.expiresAt - TOKEN_MARGIN_MS > Date.now()) return cached.token;
  const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
  const grant: Record<string, string> = { grant_type: 'client_credentials' };
  if (config.tokenAuth !== 'basic') grant.client_id = config.clientId;
  if (config.tokenAuth === 'body') grant.client_secret = config.clientSecret;
  if (config.scopes.trim()) grant.scope = config.scopes.trim();
  const response = await send('token', config.tokenUrl, {
    method: 'POST',
    headers: {
      ...(config.tokenAuth === 'basic' ? { authorization: `Basic ${basic}` } : {}),
      'content-type':
        config.tokenFormat === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: config.tokenFormat === 'json' ? JSON.stringify(grant) : new URLSearchParams(grant).toString(),
    tls: config.tls,
  });
  if (!response.ok) {
    const problem = await problemOf(response);
    logRemoteError('pix-psp', { step: 'token', status: response.status, title: problem.title });
    throw new PspError(response.status, problem, 'token');
  }
  const body = (await response.json()) as { access_token?: string; expires_in?: number };
  if (!body.access_token) throw new PspError(502, { title: 'no access_token' }, 'token');
  const expiresIn = Number(body.expires_in ?? 3600);
  tokens.set(key, { token: body.access_token, expiresAt: Date.now() + expiresIn * 1000 });
  return body.access_token;
}

async function api<T>(config: PspConfig, method: string, path: string, body?: unknown): Promise<T> {
  let url = `${config.apiUrl.replace(/\/+$/, '')}${path}`;
  if (config.query && Object.keys(config.query).length)
    url += `${url.includes('?') ? '&' : '?'}${new URLSearchParams(config.query)}`;
  for (let attempt = 0; ; attempt++) {
    const bearer = await token(config, attempt > 0);
    const response = await send('api', url, {
      method,
      headers: {
        ...config.headers,
        authorization: `Bearer ${bearer}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      tls: config.tls,
    });
    // A token the PSP revoked before its time: one fresh token, once.
    if (response.status === 401 && attempt === 0) {
      await response.body?.cancel().catch(() => {});
      continue;
    }
    if (!response.ok) {
      const problem = await problemOf(response);
      logRemoteError('pix-psp', {
        step: 'api',
        method,
        path: path.split('/')[1],
        status: response.status,
        type: problem.type,
      });
      throw new PspError(response.status, problem, 'api');
    }
    const text = await response.text();
    return (text ? JSON.parse(text) : {}) as T;
  }
}

const enc = encodeURIComponent;

/** The standard's calls for one PSP account. */
export function pspClient(config: PspConfig) {
  return {
    /** Fetches a token (the connection test's first step). */
    token: () => token(config, true),
    putCob: (txid: string, cob: CobSolicitada) => api<CobGerada>(config, 'PUT', `/cob/${enc(txid)}`, cob),
    getCob: (txid: string) => api<CobGerada>(config, 'GET', `/cob/${enc(txid)}`),
    patchCob: (
      txid: string,
      revision: Partial<CobSolicitada> & { status?: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    ) => api<CobGerada>(config, 'PATCH', `/cob/${enc(txid)}`, revision),
    putWebhook: (chave: string, webhookUrl: string) =>
      api<unknown>(config, 'PUT', `/webhook/${enc(chave)}`, { webhookUrl }),
    /** Every page of GET /pix between two instants (RFC 3339). */
    listPix: async (inicio: string, fim: string): Promise<PspPix[]> => {
      const all: PspPix[] = [];
      for (let page = 0; page < 100; page++) {
        const query = new URLSearchParams({ inicio, fim, 'paginacao.paginaAtual': String(page) });
        const answer = await api<PixConsultados>(config, 'GET', `/pix?${query}`);
        all.push(...(answer.pix ?? []));
        const pages = answer.parametros?.paginacao?.quantidadeDePaginas ?? 1;
        if (page + 1 >= pages) break;
      }
      return all;
    },
    getPix: (e2eid: string) => api<PspPix>(config, 'GET', `/pix/${enc(e2eid)}`),
    putDevolucao: (e2eid: string, id: string, valor: string, descricao?: string) =>
      api<PspDevolucao>(config, 'PUT', `/pix/${enc(e2eid)}/devolucao/${enc(id)}`, {
        valor,
        ...(descricao ? { descricao } : {}),
      }),
    getDevolucao: (e2eid: string, id: string) =>
      api<PspDevolucao>(config, 'GET', `/pix/${enc(e2eid)}/devolucao/${enc(id)}`),
  };
}

export type PspClient = ReturnType<typeof pspClient>;

/** Integer cents as the standard's decimal string ("37.00"). */
export const valorOf = (cents: number) => (cents / 100).toFixed(2);
/** The standard's decimal string as integer cents. */
export const centsOfValor = (valor: string) => Math.round(Number(valor) * 100);
