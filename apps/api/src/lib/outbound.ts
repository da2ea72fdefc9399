import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, type Dispatcher, fetch as undiciFetch } from 'undici';

/**
 * The one door for every call this server makes to another service (carriers, routing, CEP,
 * WhatsApp, the payment gateway): issue 31 item 1, docs/decisions.md "Outgoing calls go through one
 * guard". Hosts come from the server's configuration, never from a shop; still, a name can resolve to
 * an internal address (or be made to, between a check and the connection), so:
 * - only http(s);
 * - an IP literal is checked before anything is sent;
 * - a name is resolved by our own lookup inside the connection (undici Agent `connect.lookup`): when
 *   any address it resolves to is private, loopback, link-local, CGNAT, multicast, unspecified, a
 *   cloud metadata address or an IPv4-mapped/NAT64 form of those, the call is refused; otherwise the
 *   connection goes to exactly the addresses that were checked (no DNS rebinding between check and
 *   connect);
 * - redirects are followed by hand (at most 3), each hop checked the same way.
 * The operator allows internal services in the environment: OUTBOUND_ALLOW_PRIVATE=true (local fakes,
 * tests, an all-internal deployment) or OUTBOUND_ALLOW_HOSTS (names or addresses, comma-separated).
 * A host in OUTBOUND_LEGACY_TLS_HOSTS gets TLS 1.0+ with old ciphers (Rodonaves' 01wapi host); every
 * other host keeps Node's defaults.
 */

export type OutboundPolicy = {
  /** Private, loopback and link-local addresses are allowed (never outside an operator's choice). */
  allowPrivate: boolean;
  /** Host names or IP literals allowed whatever they resolve to (lower case). */
  allowHosts: string[];
  /** Host names that may negotiate legacy TLS (1.0/1.1, SECLEVEL 0). */
  legacyTlsHosts: string[];
};

type OutboundLog = (detail: Record<string, unknown>, message: string) => void;

/** Refused before any byte was sent: the address is not a public one. */
export class OutboundRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`outbound call to ${host} refused: ${address} is not a public address`);
    this.name = 'OutboundRefusedError';
  }
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address inside an IPv6 one that carries it (::ffff:a.b.c.d, 64:ff9b::/96, 2002::/16). */
function embeddedIPv4(ipv6: string): string | null {
  const groups = expandIPv6(ipv6);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6], groups[7]); // IPv4-mapped
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6], groups[7]); // NAT64
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]); // 6to4
  return null;
}

/** Eight 16-bit groups of an IPv6 address (dotted IPv4 tail allowed); null when not one. */
function expandIPv6(ip: string): number[] | null {
  let text = ip.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((parts[0] << 8) | parts[1]).toString(16)}:${((parts[2] << 8) | parts[3]).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (s: string) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const a = parse(head);
  const b = tail === undefined ? [] : parse(tail);
  const fill = 8 - a.length - b.length;
  if (tail === undefined ? a.length !== 8 : fill < 0) return null;
  const groups = [...a, ...new Array(tail === undefined ? 0 : fill).fill(0), ...b];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** True for an address anyone on the internet could reach; false for internal and special ones. */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  const family = isIP(ip);
  if (family === 4) return !blocked.check(ip, 'ipv4');
  if (family !== 6) return false;
  const inner = embeddedIPv4(ip);
  if (inner !== null) return isPublicAddress(inner);
  return !blocked.check(ip, 'ipv6');
}

let current: OutboundPolicy = { allowPrivate: false, allowHosts: [], legacyTlsHosts: [] };
let log: OutboundLog = () => {};
const agents = new Map<string, Agent>();

/** Sets the environment's policy and where refusals and remote errors are logged (buildApp). */
export function configureOutbound(options: { policy: OutboundPolicy; log?: OutboundLog }): void {
  current = options.policy;
  if (options.log) log = options.log;
}

/** Logs what a remote service answered (never shown to the user: our messages are our own words). */
export function logRemoteError(service: string, detail: Record<string, unknown>): void {
  log({ service, ...detail }, `${service}: unexpected answer`);
}

const hostAllowed = (policy: OutboundPolicy, host: string) =>
  policy.allowPrivate || policy.allowHosts.includes(host.toLowerCase());

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that refuses a name resolving to any non-public address, and answers what it checked. */
function guardedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (!hostAllowed(policy, hostname)) {
        const bad = list.find((a) => !isPublicAddress(a.address));
        if (bad || list.length === 0) {
          log({ host: hostname, address: bad?.address }, 'outbound call refused');
          return callback(
            Object.assign(new OutboundRefusedError(hostname, bad?.address ?? 'none'), { code: 'EREFUSED' }),
            [],
          );
        }
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

/**
 * A client certificate for mutual TLS (the Pix API's PSPs, issue 33; the NFC-e A1 with SEFAZ, issue 32): a .pfx with its passphrase or a
 * PEM certificate and key; `ca` trusts a private CA (a PSP's sandbox, the tests' local CA).
 */
export type OutboundTls = {
  pfx?: Buffer;
  passphrase?: string;
  cert?: string;
  key?: string;
  ca?: string;
};

function agentFor(policy: OutboundPolicy, host: string, tls?: OutboundTls): Dispatcher {
  const legacy = policy.legacyTlsHosts.includes(host.toLowerCase());
  // An identity is part of the agent's key (its hash only: the key material stays in the agent).
  const identity = tls
    ? createHash('sha256')
        .update(JSON.stringify({ ...tls, pfx: tls.pfx?.toString('base64') }))
        .digest('hex')
    : '';
  const key = `${JSON.stringify(policy)}|${legacy}|${identity}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      connect: {
        lookup: guardedLookup(policy) as never,
        // Only the hosts the operator named: TLS 1.0 and old ciphers (OpenSSL 3 needs SECLEVEL 0).
        ...(legacy ? { minVersion: 'TLSv1' as const, ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
        ...(tls ?? {}),
      },
    });
    agents.set(key, agent);
  }
  return agent;
}

/** Checks a URL before any connection: http(s) only, an IP literal must be public (or allowed). */
function checkUrl(policy: OutboundPolicy, url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRefusedError(url.host, `scheme ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !hostAllowed(policy, host) && !isPublicAddress(host)) {
    log({ host }, 'outbound call refused');
    throw new OutboundRefusedError(host, host);
  }
}

const MAX_REDIRECTS = 3;

/**
 * fetch through the guard. Throws like fetch when the call cannot be made (a refused address is a
 * TypeError whose cause is OutboundRefusedError, or OutboundRefusedError itself for a literal).
 */
export async function outboundFetch(
  input: string | URL,
  init: RequestInit & { tls?: OutboundTls } = {},
  policy: OutboundPolicy = current,
): Promise<Response> {
  const { tls, ...rest } = init;
  init = rest;
  let url = new URL(String(input));
  let method = init.method ?? 'GET';
  let body = init.body;
  for (let hop = 0; ; hop++) {
    checkUrl(policy, url);
    const response = await undiciFetch(url, {
      ...(init as object),
      method,
      body: body as never,
      redirect: 'manual',
      dispatcher: agentFor(policy, url.hostname, tls),
    });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location || hop >= MAX_REDIRECTS)
      return response as unknown as Response;
    await response.body?.cancel().catch(() => {});
    url = new URL(location, url);
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
    }
  }
}

/** True when a fetch failure is the guard's refusal (for callers that want to say so in their log). */
export function isOutboundRefusal(error: unknown): boolean {
  const e = error as { cause?: unknown } | null;
  return error instanceof OutboundRefusedError || e?.cause instanceof OutboundRefusedError;
}
