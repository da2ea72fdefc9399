import { AppError } from '../../errors.ts';
import { logRemoteError, outboundFetch } from '../../lib/outbound.ts';

/**
 * The payment gateway adapter, following the Asaas API v3 contract (docs/integrations/asaas.md):
 * `access_token` header, JSON bodies, decimal reais in `value`, errors as `{errors: [{code,
 * description}]}`. Every failure becomes a Portuguese AppError of our own words: the gateway refusing
 * the data is 502 (what it said goes to the log, never into the message: issue 31 item 1), an
 * unreachable or unconfigured gateway 503.
 */

type AsaasConfig = { baseUrl?: string; apiKey: string; timeoutMs: number };

type AsaasCustomer = { id: string; name: string; cpfCnpj: string; deleted?: boolean };
/** A list answer (GET /v3/customers, GET /v3/payments): one page, filtered by the query. */
type AsaasList<T> = { object?: 'list'; hasMore?: boolean; totalCount?: number; data: T[] };
type AsaasPayment = {
  id: string;
  customer: string;
  billingType: string;
  value: number;
  dueDate: string;
  status: string;
  externalReference?: string | null;
  bankSlipUrl?: string | null;
  invoiceUrl?: string | null;
  deleted?: boolean;
};

/**
 * A charge that can still be paid or already is: a retry reuses it. Refunded, charged-back or deleted
 * charges are over (the invoice then needs a new one).
 */
const LIVE_PAYMENT_STATUSES = ['PENDING', 'OVERDUE', 'RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH'];
type AsaasPixQrCode = { encodedImage: string; payload: string; expirationDate: string };
type AsaasIdentificationField = { identificationField: string; nossoNumero: string; barCode: string };

const NOT_CONFIGURED = 'O pagamento online da assinatura não está configurado. Fale com o suporte do Balcão.';
const UNREACHABLE = 'O gateway de pagamento não respondeu. Tente novamente em instantes.';
const AUTH_FAILED = 'O gateway de pagamento recusou a chave de acesso. Fale com o suporte do Balcão.';
const REFUSED = 'O gateway de pagamento recusou a cobrança. Tente novamente ou fale com o suporte do Balcão.';
/**
 * Asaas's error codes a shop can act on, in our words; any other refusal is REFUSED. The remote
 * description (operator-configured host, free text) is logged, never shown (issue 31 item 1).
 */
const REFUSED_BY_CODE: Record<string, string> = {
  invalid_cpfCnpj:
    'O gateway de pagamento recusou o CPF/CNPJ da loja. Confira o documento nos dados da loja ou fale com o suporte do Balcão.',
  invalid_name:
    'O gateway de pagamento recusou o nome da loja. Confira os dados da loja ou fale com o suporte do Balcão.',
  invalid_dueDate:
    'O gateway de pagamento recusou o vencimento da cobrança. Tente novamente em instantes ou fale com o suporte do Balcão.',
};

async function call<T>(
  config: AsaasConfig,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  if (!config.baseUrl) throw new AppError(503, NOT_CONFIGURED);
  let res: Response;
  try {
    res = await outboundFetch(`${config.baseUrl.replace(/\/+$/, '')}/v3${path}`, {
      method,
      headers: {
        access_token: config.apiKey,
        'content-type': 'application/json',
        'user-agent': 'Balcao',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch {
    throw new AppError(503, UNREACHABLE);
  }
  // The body can time out too (headers came, the rest did not): the same 503, never a 500.
  const text = await res.text().catch(() => {
    throw new AppError(503, UNREACHABLE);
  });
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.status === 401) throw new AppError(502, AUTH_FAILED);
  if (!res.ok) {
    const errors = (json as { errors?: { code?: unknown; description?: unknown }[] } | null)?.errors;
    const list = Array.isArray(errors) ? errors : [];
    if (res.status >= 500 || list.length === 0) {
      logRemoteError('asaas', { path: path.split('?')[0], status: res.status, body: text.slice(0, 500) });
      throw new AppError(503, UNREACHABLE);
    }
    logRemoteError('asaas', {
      path: path.split('?')[0],
      status: res.status,
      errors: list.map((e) => ({ code: e.code, description: String(e.description ?? '').slice(0, 300) })),
    });
    const known = list.map((e) => REFUSED_BY_CODE[String(e.code)]).find(Boolean);
    throw new AppError(502, known ?? REFUSED);
  }
  if (json === null || typeof json !== 'object') throw new AppError(503, UNREACHABLE);
  return json as T;
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

export function asaasClient(config: AsaasConfig) {
  return {
    /**
     * The customer created for `externalReference` before, if any (a create whose answer was lost to
     * a timeout must not make a second one): GET /v3/customers?externalReference=...
     */
    findCustomer: async (externalReference: string) => {
      const list = await call<AsaasList<AsaasCustomer>>(
        config,
        'GET',
        `/customers?${query({ externalReference, limit: '10' })}`,
      );
      return (list.data ?? []).find((c) => !c.deleted) ?? null;
    },
    /** The live charge of `externalReference`, if any: GET /v3/payments?externalReference=... */
    findPayment: async (externalReference: string) => {
      const list = await call<AsaasList<AsaasPayment>>(
        config,
        'GET',
        `/payments?${query({ externalReference, limit: '10' })}`,
      );
      return (list.data ?? []).find((p) => !p.deleted && LIVE_PAYMENT_STATUSES.includes(p.status)) ?? null;
    },
    createCustomer: (input: { name: string; cpfCnpj: string; externalReference: string }) =>
      call<AsaasCustomer>(config, 'POST', '/customers', input),
    createPayment: (input: {
      customer: string;
      billingType: 'UNDEFINED' | 'PIX' | 'BOLETO';
      value: number;
      dueDate: string;
      description: string;
      externalReference: string;
    }) => call<AsaasPayment>(config, 'POST', '/payments', input),
    getPayment: (id: string) => call<AsaasPayment>(config, 'GET', `/payments/${encodeURIComponent(id)}`),
    pixQrCode: (id: string) =>
      call<AsaasPixQrCode>(config, 'GET', `/payments/${encodeURIComponent(id)}/pixQrCode`),
    identificationField: (id: string) =>
      call<AsaasIdentificationField>(
        config,
        'GET',
        `/payments/${encodeURIComponent(id)}/identificationField`,
      ),
  };
}
export type AsaasClient = ReturnType<typeof asaasClient>;
