import type { z } from 'zod';
import type { UserTypeId } from './userTypes.ts';

/**
 * The one contract between the web and the API (issue 29): every endpoint is declared once, here in
 * core, with its method, path, access, schemas and what the route needs. The API registers each route
 * from its declaration (`apps/api/src/lib/endpoint.ts`: validation, serialization, OpenAPI, access,
 * Idempotency-Key, uploads, CSV downloads and errors done once) and the module writes only the
 * handler; the web calls it through the typed client (`apps/web/src/lib/client.ts`): no path strings
 * and no answer types written by hand.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call: 'public' (no session) or the user types of the route table's sets (`can`). */
export type Access = 'public' | readonly UserTypeId[];

/**
 * The resources a change is signalled for on the socket (`change {resource, id}`) and the first part
 * of every query key in the web: a change of one refetches what shows it. A free string on neither
 * end: the API's `ctx.changed` and the web's invalidation both take this union.
 */
export const RESOURCES = [
  'account',
  /** The session's endpoints (login, logout, /user/me): the OpenAPI tag; never signalled. */
  'auth',
  'backup',
  'billing',
  'budget',
  'campaign',
  'campaign-category',
  'cash-register',
  'cep',
  'comanda',
  'coupon',
  'customer',
  'delivery',
  'fee-simulator',
  /** Issue 32: NFC-e settings, certificate and notes. */
  'fiscal',
  /** Cash flow, DRE and the day's close (issue 34): read-only figures. */
  'finance',
  'health',
  'home',
  'marketplace',
  'notification',
  /** Pix confirmed by the bank (issue 33): charges, received Pix, refunds. */
  'pix',
  'payable',
  'print-job',
  'print-station',
  'printing',
  'product',
  'product-additional',
  'product-brand',
  'product-category',
  'receivable',
  'sale',
  'session',
  'settings',
  'shipping',
  'shipping-carrier',
  'shipping-settings',
  'stock',
  'supplier',
  'user',
  'user-address',
  'whatsapp',
] as const;
export type Resource = (typeof RESOURCES)[number];

/** The stable machine code of an error answer: clients branch on it, never on the message text. */
export type ErrorCode =
  /** The request does not satisfy its schema or a field rule (400). */
  | 'validation'
  /** No session, or an expired one (401). */
  | 'unauthorized'
  /** The session may not do this (403). */
  | 'forbidden'
  /** No such record for this client, or no such route (404). */
  | 'not_found'
  /** The request conflicts with the current state (409). */
  | 'conflict'
  /** A unique value (name, code, document, e-mail) is taken (409). */
  | 'duplicate'
  /** The edit was made on a copy someone else changed meanwhile (409). */
  | 'stale'
  /** Not enough stock for the movement or sale (409). */
  | 'insufficient_stock'
  /** The comanda is no longer open: closed, canceled or merged (409); final, never worth a retry. */
  | 'tab_closed'
  /** The action needs the user's cash register open (422). */
  | 'register_closed'
  /** Well-formed but refused by a business rule (422). */
  | 'rule'
  /** The body is too big (413). */
  | 'too_large'
  /** The content type is not accepted (415). */
  | 'unsupported_media_type'
  /** Too many attempts (429). */
  | 'rate_limited'
  /** An external service (CEP, WhatsApp, freight) could not answer (502/503). */
  | 'unavailable'
  /** A bug: never with details (500). */
  | 'internal';

/** What a download answers instead of JSON (the body is the file, streamed or whole). */
export type FileKind = 'csv' | 'pdf' | 'binary' | 'ndjson' | 'html' | 'text' | 'webp' | 'jpeg' | 'png';

/** An image upload (multipart field "file"): its size limit and the Portuguese messages. */
export type Upload = {
  maxBytes: number;
  /** 413 when the file is over maxBytes. */
  tooLarge: string;
  /** 415 when the bytes are not an accepted image. */
  notSupported: string;
  /** A PDF is accepted too (a payable's attachment, issue 34); the file's name is kept. */
  pdf?: boolean;
  /** An XML document instead of an image (a supplier's NF-e, issue 34). */
  xml?: boolean;
};

export type EndpointDef = {
  method: Method;
  /** Path under /v1, with `:name` parameters (`/coupon/:id`). */
  path: string;
  /** The socket/query resource this endpoint belongs to (the OpenAPI tag and the query keys' head). */
  resource: Resource;
  /**
   * The OpenAPI tag when it is not the resource: a module whose routes read and change several
   * resources (printing: 'print-job', 'print-station') keeps its one tag in the documentation.
   */
  tag?: string;
  access: Access;
  /** One line for the OpenAPI documentation. */
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success answers by status: the first is the usual one (201 for a create). */
  response: Partial<Record<200 | 201 | 202 | 204, z.ZodType>>;
  /** A download: the answer is a file of this kind, not JSON (CSV goes through the streaming helper). */
  file?: FileKind;
  /**
   * A JSON answer that streams this kind instead when the request's Accept asks for it (the product
   * import's NDJSON progress): both are documented under the success status.
   */
  stream?: FileKind;
  /**
   * The Idempotency-Key header: 'optional' (a retry with the same key answers the first result) or
   * 'required' (400 without one). Parsed once, by one rule, into `request.idempotencyKey`.
   */
  idempotencyKey?: 'optional' | 'required';
  /** An image upload: the file is read once into `request.upload` (400/413/415 with these texts). */
  upload?: Upload;
  /** The resources a success changes: the web invalidates them, the API signals them on the socket. */
  changes?: readonly Resource[];
  /** A body limit other than the server's default (imports). */
  bodyLimit?: number;
};

/** Declares an endpoint: the identity, keeping the literal types the API and the client infer from. */
export function endpoint<const E extends EndpointDef>(definition: E): E {
  return definition;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : never;
type InferIn<T> = T extends z.ZodType ? z.input<T> : never;

/** The answer of an endpoint (the union of its success answers). */
export type ResponseOf<E extends EndpointDef> = Infer<E['response'][keyof E['response']]>;

/** The path parameter names of a path template: `/coupon/:id/image` -> 'id'. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** What a caller sends: path parameters, query and body, each only when the endpoint has it. */
export type CallInput<E extends EndpointDef> = ([PathParamNames<E['path']>] extends [never]
  ? { params?: undefined }
  : { params: Record<PathParamNames<E['path']>, string | number> }) &
  (E['query'] extends z.ZodType ? { query: InferIn<E['query']> } : { query?: undefined }) &
  (E['body'] extends z.ZodType ? { body: InferIn<E['body']> } : { body?: undefined });

/** The path of a call: each `:name` replaced by its parameter, encoded. */
export function pathOf(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A query string from a query object: undefined and empty values left out, arrays repeated
 * (`?status=a&status=b`), dates as ISO text. Empty when nothing remains.
 */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined || item === null || item === '') continue;
      search.append(key, item instanceof Date ? item.toISOString() : String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
