import { readFileSync } from 'node:fs';
import { type FiscalEnvironment, sefazUrls, type Uf } from '@balcao/core/fiscal';
import type { Config } from '../../config.ts';
import { logRemoteError, outboundFetch } from '../../lib/outbound.ts';
import type { A1 } from './certificate.ts';
import { soapBody, soapEnvelope } from './xml.ts';

/**
 * The SEFAZ web services (NF-e 4.00, SOAP 1.2 over mutual TLS with the shop's A1), through the
 * outbound guard. Where: the "local" environment goes to the fake SEFAZ (SEFAZ_LOCAL_URL/ws/<service>),
 * homologação and produção to the state's (or SVRS's) URLs from core's table.
 */
export type SefazService =
  | 'NFeAutorizacao4'
  | 'NFeConsultaProtocolo4'
  | 'NFeStatusServico4'
  | 'NFeRecepcaoEvento4'
  | 'NFeInutilizacao4'
  | 'RecepcaoEPEC'
  | 'EPECStatusServico';

const URL_OF: Record<
  SefazService,
  'authorize' | 'query' | 'status' | 'event' | 'voidNumbers' | 'epec' | 'epecStatus'
> = {
  NFeAutorizacao4: 'authorize',
  NFeConsultaProtocolo4: 'query',
  NFeStatusServico4: 'status',
  NFeRecepcaoEvento4: 'event',
  NFeInutilizacao4: 'voidNumbers',
  RecepcaoEPEC: 'epec',
  EPECStatusServico: 'epecStatus',
};

/**
 * The SOAP operation (the wsdl namespace and the action) when it is not the service's name: SP's EPEC
 * NFC-e services answer the operations "RecepcaoEvento" and "NfeStatusServico2" (nfephp-org/sped-nfe
 * storage/wsnfe_4.00_mod65.xml, SP's RecepcaoEPEC and EPECStatusServico entries).
 */
const OPERATION_OF: Partial<Record<SefazService, string>> = {
  RecepcaoEPEC: 'RecepcaoEvento',
  EPECStatusServico: 'NfeStatusServico2',
};

/** SEFAZ answered (any cStat), or did not: the link, a timeout, a 5xx. */
export type SefazAnswer =
  | { ok: true; body: string }
  | { ok: false; reason: 'timeout' | 'unreachable' | 'http' };

let caCache: { file: string; pem: string } | null = null;
function caOf(config: Config): string | undefined {
  const file = config.sefaz.caFile;
  if (!file) return undefined;
  if (caCache?.file !== file) caCache = { file, pem: readFileSync(file, 'utf8') };
  return caCache.pem;
}

export function serviceUrl(
  config: Config,
  env: FiscalEnvironment,
  uf: Uf,
  service: SefazService,
): string | null {
  if (env === 'local') return config.sefaz.localUrl ? `${config.sefaz.localUrl}/ws/${service}` : null;
  return sefazUrls(uf, env)[URL_OF[service]] ?? null;
}

export async function callSefaz(
  config: Config,
  target: { env: FiscalEnvironment; uf: Uf; a1: A1; a1Id: string },
  service: SefazService,
  body: string,
  timeoutMs = config.sefaz.timeoutMs,
): Promise<SefazAnswer> {
  const url = serviceUrl(config, target.env, target.uf, service);
  if (!url) return { ok: false, reason: 'unreachable' };
  try {
    const response = await outboundFetch(url, {
      method: 'POST',
      headers: {
        'content-type': `application/soap+xml; charset=utf-8; action="${OPERATION_OF[service] ?? service}"`,
      },
      body: soapEnvelope(OPERATION_OF[service] ?? service, body),
      signal: AbortSignal.timeout(timeoutMs),
      tls: { key: target.a1.keyPem, cert: target.a1.certPem, ca: caOf(config) },
    });
    const text = await response.text();
    if (response.status >= 500 || !response.ok) {
      logRemoteError('sefaz', { service, status: response.status, body: text.slice(0, 500) });
      return { ok: false, reason: 'http' };
    }
    return { ok: true, body: soapBody(text) };
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, reason: 'timeout' };
    const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
    logRemoteError('sefaz', {
      service,
      error: String((error as Error)?.message ?? error),
      cause: cause ? `${cause.code ?? ''} ${cause.message ?? ''}`.trim() : undefined,
    });
    return { ok: false, reason: 'unreachable' };
  }
}
