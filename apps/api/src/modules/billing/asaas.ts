import { AppError } from '../../errors.ts';
import { outboundFetch } from '../../lib/outbound.ts';

/**
 * The payment gateway adapter, following the Asaas API v3 contract (docs/integrations/asaas.md):
 * `access_token` header, JSON bodies, decimal reais in `value`, errors as `{errors: [{code,
 * description}]}`. Every failure becomes a Portuguese AppError: the gateway refusing the data is 502
 * with its description, an unreachable or unconfigured gateway 503.
 */

type AsaasConfig = { baseUrl?: string; apiKey: string; timeoutMs: number };

type AsaasCustomer = { id: string; name: string; cpfCnpj: string };
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
};
type AsaasPixQrCode = { encodedImage: string; payload: string; expirationDate: string };
type AsaasIdentificationField = { identificationField: string; nossoNumero: string; barCode: string };

const NOT_CONFIGURED = 'O pagamento online da assinatura não está configurado. Fale com o suporte do Balcão.';
const UNREACHABLE = 'O gateway de pagamento não respondeu. Tente novamente em instantes.';
const AUTH_FAILED = 'O gateway de pagamento recusou a chave de acesso. Fale com o suporte do Balcão.';

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
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.status === 401) throw new AppError(502, AUTH_FAILED);
  if (!res.ok) {
    const errors = (json as { errors?: { description?: string }[] } | null)?.errors;
    const description = errors
      ?.map((e) => e.description)
      .filter(Boolean)
      .join(' ');
    if (res.status >= 500 || !description) throw new AppError(503, UNREACHABLE);
    throw new AppError(502, `O gateway de pagamento recusou a cobrança: ${description}`);
  }
  if (json === null || typeof json !== 'object') throw new AppError(503, UNREACHABLE);
  return json as T;
}

export function asaasClient(config: AsaasConfig) {
  return {
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
