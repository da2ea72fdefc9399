import type { PixEnvironment, PixProviderOption } from '@balcao/core/pixCharge';
import type { Config } from '../../config.ts';

/**
 * The PSPs a shop may pick on "Conta Pix" (issue 33, under issue 31's rule: a service's hosts come
 * from the server's configuration, never from a shop's settings). The shop chooses a PSP and an
 * environment; the API root, the token URL and the PSP's quirks come from here (or, for the local
 * fake, from PIX_FAKE_URL). Sources per PSP are in docs/integrations/pix-api.md ("PSP catalogue").
 */

export type TokenAuth =
  /** RFC 6749 client authentication: `Authorization: Basic id:secret`. */
  | 'basic'
  /** client_id and client_secret in the form body (Itaú, Inter, Santander). */
  | 'body'
  /** client_id in the form body, no secret: the mTLS certificate authenticates (Sicoob). */
  | 'client-id';

export type PspHosts = { apiUrl: string; tokenUrl: string };

export type PspEntry = {
  id: string;
  label: string;
  environments: Partial<Record<PixEnvironment, PspHosts>>;
  /** How the token request is written. */
  tokenFormat: 'form' | 'json';
  tokenAuth: TokenAuth;
  /** Scopes asked in the token request; '' sends none (the PSP grants what the application has). */
  scopes: string;
  /** The PSP issues a client secret (Sicoob does not: its certificate is the credential). */
  needsSecret: boolean;
  /** A query parameter every API call carries with the shop's application key (BB: gw-dev-app-key). */
  appKeyParam?: string;
  /** The API wants the client id in a header on every call (Sicoob: `client_id`). */
  clientIdHeader?: string;
  /**
   * How the webhook proves it is the PSP's, beside the secret path: 'efi-hmac' registers
   * `?hmac=<secret>&ignorar=` (Efí appends `/pix` into `ignorar`) and refuses a post without it.
   */
  webhookAuth: 'path' | 'efi-hmac';
};

const STANDARD_SCOPES = 'cob.write cob.read pix.read pix.write webhook.read webhook.write';

export const PSP_CATALOGUE: readonly PspEntry[] = [
  {
    id: 'efi',
    label: 'Efí (Gerencianet)',
    environments: {
      production: {
        apiUrl: 'https://pix.api.efipay.com.br/v2',
        tokenUrl: 'https://pix.api.efipay.com.br/oauth/token',
      },
      sandbox: {
        apiUrl: 'https://pix-h.api.efipay.com.br/v2',
        tokenUrl: 'https://pix-h.api.efipay.com.br/oauth/token',
      },
    },
    tokenFormat: 'json',
    tokenAuth: 'basic',
    scopes: '',
    needsSecret: true,
    webhookAuth: 'efi-hmac',
  },
  {
    id: 'itau',
    label: 'Itaú',
    environments: {
      production: {
        apiUrl: 'https://secure.api.itau/pix_recebimentos/v2',
        tokenUrl: 'https://sts.itau.com.br/api/oauth/token',
      },
      sandbox: {
        apiUrl: 'https://devportal.itau.com.br/sandboxapi/pix_recebimentos_ext_v2/v2',
        tokenUrl: 'https://devportal.itau.com.br/api/jwt',
      },
    },
    tokenFormat: 'form',
    tokenAuth: 'body',
    scopes: '',
    needsSecret: true,
    webhookAuth: 'path',
  },
  {
    id: 'bb',
    label: 'Banco do Brasil',
    environments: {
      production: {
        apiUrl: 'https://api-pix.bb.com.br/pix/v2',
        tokenUrl: 'https://oauth.bb.com.br/oauth/token',
      },
      sandbox: {
        apiUrl: 'https://api-pix.hm.bb.com.br/pix/v2',
        tokenUrl: 'https://oauth.hm.bb.com.br/oauth/token',
      },
    },
    tokenFormat: 'form',
    tokenAuth: 'basic',
    scopes: STANDARD_SCOPES,
    needsSecret: true,
    appKeyParam: 'gw-dev-app-key',
    webhookAuth: 'path',
  },
  {
    id: 'sicoob',
    label: 'Sicoob',
    // Sicoob's sandbox answers with a fixed token and no mutual TLS: not offered (docs/integrations).
    environments: {
      production: {
        apiUrl: 'https://api.sicoob.com.br/pix/api/v2',
        tokenUrl: 'https://auth.sicoob.com.br/auth/realms/cooperado/protocol/openid-connect/token',
      },
    },
    tokenFormat: 'form',
    tokenAuth: 'client-id',
    scopes: STANDARD_SCOPES,
    needsSecret: false,
    clientIdHeader: 'client_id',
    webhookAuth: 'path',
  },
  {
    id: 'inter',
    label: 'Banco Inter',
    environments: {
      production: {
        apiUrl: 'https://cdpj.partners.bancointer.com.br/pix/v2',
        tokenUrl: 'https://cdpj.partners.bancointer.com.br/oauth/v2/token',
      },
      sandbox: {
        apiUrl: 'https://cdpj-sandbox.partners.uatinter.co/pix/v2',
        tokenUrl: 'https://cdpj-sandbox.partners.uatinter.co/oauth/v2/token',
      },
    },
    tokenFormat: 'form',
    tokenAuth: 'body',
    scopes: STANDARD_SCOPES,
    needsSecret: true,
    webhookAuth: 'path',
  },
  {
    id: 'santander',
    label: 'Santander',
    environments: {
      production: {
        apiUrl: 'https://trust-pix.santander.com.br/api/v1',
        tokenUrl: 'https://trust-pix.santander.com.br/oauth/token?grant_type=client_credentials',
      },
      sandbox: {
        apiUrl: 'https://trust-pix-h.santander.com.br/api/v1',
        tokenUrl: 'https://trust-pix-h.santander.com.br/oauth/token?grant_type=client_credentials',
      },
    },
    tokenFormat: 'form',
    tokenAuth: 'body',
    scopes: '',
    needsSecret: true,
    webhookAuth: 'path',
  },
];

/** The local fake PSP's id (offered only when the server has PIX_FAKE_URL). */
export const FAKE_PSP_ID = 'fake';

/**
 * The catalogue this server offers: the PSPs above, plus the local fake when PIX_FAKE_URL is set
 * (tests, `npm start` with the demo shop). The fake behaves as Efí does (JSON token, hmac).
 */
export function pspCatalogue(config: Pick<Config, 'pix'>): PspEntry[] {
  const fake = config.pix?.fakeUrl;
  if (!fake) return [...PSP_CATALOGUE];
  const hosts = { apiUrl: `${fake}/v2`, tokenUrl: `${fake}/oauth/token` };
  return [
    ...PSP_CATALOGUE,
    {
      id: FAKE_PSP_ID,
      label: 'PSP de teste (local)',
      environments: { production: hosts, sandbox: hosts },
      tokenFormat: 'json',
      tokenAuth: 'basic',
      scopes: STANDARD_SCOPES,
      needsSecret: true,
      webhookAuth: 'efi-hmac',
    },
  ];
}

export function pspEntry(config: Pick<Config, 'pix'>, id: string): PspEntry | null {
  return pspCatalogue(config).find((p) => p.id === id) ?? null;
}

/** What the page's select shows: ids, names and environments, never a host. */
export function providerOptions(config: Pick<Config, 'pix'>): PixProviderOption[] {
  return pspCatalogue(config).map((p) => ({
    id: p.id,
    label: p.label,
    environments: (['production', 'sandbox'] as const).filter((e) => p.environments[e]),
    needsSecret: p.needsSecret,
    needsAppKey: Boolean(p.appKeyParam),
  }));
}
