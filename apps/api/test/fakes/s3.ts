import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local S3-compatible server with the part of Amazon S3's REST contract the storage adapter uses,
 * path-style (`/{bucket}/{key}`): PutObject, GetObject, DeleteObject, ListObjectsV2 (`?list-type=2`,
 * prefix, continuation token, max-keys) and DeleteObjects (`POST ?delete`). Requests must be signed
 * with AWS Signature Version 4 by a known access key (the signature is checked, and the body against
 * `x-amz-content-sha256`). Errors are S3's: status and `<Error><Code>...` XML (NoSuchKey,
 * NoSuchBucket, InvalidAccessKeyId, SignatureDoesNotMatch, XAmzContentSHA256Mismatch, MethodNotAllowed).
 */

export type FakeS3 = {
  url: string;
  /** bucket -> key -> object */
  buckets: Map<string, Map<string, { body: Buffer; contentType: string; etag: string }>>;
  requests: string[];
  close: () => Promise<void>;
};

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** RFC 3986 encoding as SigV4 wants it. */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
) {
  const fields = Object.entries(extra)
    .map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`)
    .join('');
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message>${fields}<RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendXml(res: ServerResponse, body: string) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
  res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) });
  res.end(xml);
}

/** Checks the SigV4 Authorization header; answers the error to send, or null when the request is signed right. */
function checkSignature(
  req: IncomingMessage,
  body: Buffer,
  credentials: Record<string, string>,
): [number, string, string] | null {
  const auth = req.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!match) return [403, 'AccessDenied', 'Access Denied'];
  const [, accessKey, date, region, signedHeaders, signature] = match;
  const secret = credentials[accessKey];
  if (secret === undefined)
    return [403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'];
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body))
    return [
      400,
      'XAmzContentSHA256Mismatch',
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    ];
  const url = new URL(req.url ?? '/', 'http://fake');
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headerNames = signedHeaders.split(';');
  const canonicalHeaders = headerNames
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    req.method,
    url.pathname,
    query,
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 's3'), 'aws4_request');
  const expected = createHmac('sha256', key).update(stringToSign).digest('hex');
  if (expected !== signature)
    return [
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    ];
  return null;
}

export async function startFakeS3(
  options: { port?: number; buckets?: string[]; credentials?: Record<string, string> } = {},
): Promise<FakeS3> {
  const credentials = options.credentials ?? { 'fake-access-key': 'fake-secret-key' };
  const buckets: FakeS3['buckets'] = new Map(
    (options.buckets ?? ['balcao']).map((name) => [name, new Map()]),
  );
  const requests: string[] = [];

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const refused = checkSignature(req, body, credentials);
    if (refused) return sendError(res, ...refused);

    const [, bucketName = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const bucket = buckets.get(decodeURIComponent(bucketName));
    if (!bucket)
      return sendError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', {
        BucketName: bucketName,
      });

    if (key === '') {
      if (req.method === 'GET' && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const maxKeys = Math.min(Number(url.searchParams.get('max-keys') ?? 1000) || 1000, 1000);
        const after = url.searchParams.get('continuation-token') ?? url.searchParams.get('start-after') ?? '';
        const keys = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
        const page = keys.slice(0, maxKeys);
        const truncated = keys.length > page.length;
        const contents = page
          .map((k) => {
            const object = bucket.get(k);
            return `<Contents><Key>${xmlEscape(k)}</Key><ETag>&quot;${object?.etag}&quot;</ETag><Size>${object?.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
          })
          .join('');
        return sendXml(
          res,
          `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(bucketName)}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${
            truncated
              ? `<NextContinuationToken>${xmlEscape(page[page.length - 1])}</NextContinuationToken>`
              : ''
          }</ListBucketResult>`,
        );
      }
      if (req.method === 'POST' && url.searchParams.has('delete')) {
        const xml = body.toString('utf8');
        const quiet = /<Quiet>true<\/Quiet>/.test(xml);
        const deleted = [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) =>
          m[1]
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&quot;/g, '"')
            .replace(/&amp;/g, '&'),
        );
        for (const k of deleted) bucket.delete(k);
        const list = quiet
          ? ''
          : deleted.map((k) => `<Deleted><Key>${xmlEscape(k)}</Key></Deleted>`).join('');
        return sendXml(
          res,
          `<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${list}</DeleteResult>`,
        );
      }
      return sendError(
        res,
        405,
        'MethodNotAllowed',
        'The specified method is not allowed against this resource.',
      );
    }

    if (req.method === 'PUT') {
      const etag = createHash('md5').update(body).digest('hex');
      bucket.set(key, {
        body,
        contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
        etag,
      });
      res.writeHead(200, { etag: `"${etag}"`, 'content-length': 0 });
      return res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const object = bucket.get(key);
      if (!object) {
        if (req.method === 'HEAD') {
          res.writeHead(404);
          return res.end();
        }
        return sendError(res, 404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
      }
      res.writeHead(200, {
        'content-type': object.contentType,
        'content-length': object.body.length,
        etag: `"${object.etag}"`,
      });
      return res.end(req.method === 'HEAD' ? undefined : object.body);
    }
    if (req.method === 'DELETE') {
      bucket.delete(key);
      res.writeHead(204);
      return res.end();
    }
    return sendError(
      res,
      405,
      'MethodNotAllowed',
      'The specified method is not allowed against this resource.',
    );
  });

  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    buckets,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
