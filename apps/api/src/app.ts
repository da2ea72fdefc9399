import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Server } from 'socket.io';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Db } from './db/client.ts';
import { errorBody, registerErrorHandler } from './errors.ts';
import { configureOutbound } from './lib/outbound.ts';
import { type LogStream, loggerOptions } from './lib/requestLog.ts';
import { checkedSerializerCompiler } from './lib/responseCheck.ts';
import { MAX_UPLOAD_BYTES } from './lib/upload.ts';
import { useLimits } from './modules/auth/limiter.ts';
import { MODULES } from './modules/index.ts';
import { type Access, registerAuth } from './plugins/auth.ts';
import { attachSocket, changedWith, notifyWith, sessionsEndedWith } from './plugins/socket.ts';

/** A route as registered, for tests that must cover every route (e.g. 401 without a token). */
export type RegisteredRoute = {
  method: string;
  url: string;
  access: Access | undefined;
  /** Registered from its declaration in core (lib/endpoint.ts `route`). */
  declared: boolean;
};

export type App = FastifyInstance & { io: Server; ctx: AppContext; routes: readonly RegisteredRoute[] };

/** Fastify's types leave out a hop count (the runtime takes it): trust the first n hops. */
function trustProxyOption(value: Config['trustProxy']) {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}

/**
 * The built web app's Content-Security-Policy: its own origin only (scripts, API, socket), MUI's
 * runtime styles (emotion writes <style> tags), images from the API, data: and blob: (previews),
 * never framed. No upgrade-insecure-requests: a shop may run the server on plain HTTP in its network.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  scriptSrcAttr: ["'none'"],
  upgradeInsecureRequests: null,
};

/**
 * The CSP hashes ('sha256-...') of a page's inline scripts: mesa.html's few lines that ask for the menu
 * while the page's modules download (issue 35) run on that page only, by their exact text.
 */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`,
  );
}

/**
 * Security headers on every answer (@fastify/helmet): the CSP above, X-Frame-Options DENY, nosniff,
 * and Cache-Control no-store on every API answer (personal data: sessions, customers, sales, CSVs)
 * unless a route chose its own (product images are public and immutable).
 */
async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url ?? request.url;
    if (url.startsWith('/v1/') && !url.startsWith('/v1/docs') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** The whole API as one Fastify instance (tests use inject, the server listens). */
export async function buildApp(options: {
  db: Db;
  config: Config;
  /** true: log to stdout; a stream: log there (tests read the lines). URLs are redacted (lib/requestLog.ts). */
  logger?: boolean | LogStream;
  /** Tests: fail an answer that its response schema would change (see lib/responseCheck.ts). */
  checkResponses?: boolean;
  /**
   * The PostgreSQL database (URL) every instance shares: socket events then reach sockets on every
   * instance (plugins/socket.ts). Unset on PGlite: one process, in-memory socket.io.
   */
  clusterUrl?: string;
}): Promise<App> {
  const { db, config } = options;
  const app = Fastify({
    logger: options.logger
      ? loggerOptions(config.logLevel, options.logger === true ? undefined : options.logger)
      : false,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 10 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(options.checkResponses ? checkedSerializerCompiler : serializerCompiler);
  registerErrorHandler(app);
  await registerSecurityHeaders(app);

  useLimits(db, config);
  configureOutbound({
    policy: config.outbound,
    log: (detail, message) => app.log.warn(detail, message),
  });
  const io = attachSocket(app, db, config, options.clusterUrl);
  const ctx: AppContext = {
    db,
    config,
    notify: notifyWith(io),
    changed: changedWith(io),
    sessionsEnded: sessionsEndedWith(io, db, Boolean(options.clusterUrl)),
    io,
    lifecycle: { draining: false },
  };

  // Draining (SIGTERM): a request still in flight answers with Connection: close, so its keep-alive
  // connection ends with it and the server can finish closing.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (ctx.lifecycle.draining) reply.header('connection', 'close');
    return payload;
  });

  // Access comes from the matched route's config (plugins/auth.ts): the docs' own routes and every
  // route outside /v1 (the web app's files) are public by their registered path, which the router
  // matched; everything else is private unless it says so. Every route is recorded in `routes`.
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const isApi = route.url === '/v1' || route.url.startsWith('/v1/');
    if (!isApi || route.url.startsWith('/v1/docs'))
      route.config = { ...(route.config ?? {}), access: 'public' };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      routes.push({
        method,
        url: route.url,
        access: route.config?.access,
        declared: route.config?.declared === true,
      });
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Balcão API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs', uiConfig: { docExpansion: 'list' } });

  registerAuth(app, db);
  await app.register(
    async (v1) => {
      // One multipart parser for the image uploads; each route reads its file with its own limit
      // (lib/upload.ts, the endpoint's `upload`).
      await v1.register(fastifyMultipart, {
        limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6 },
      });
      for (const mod of MODULES) await v1.register(mod(ctx));
    },
    { prefix: '/v1' },
  );

  const webDist = config.webDist;
  const hasWeb = webDist && existsSync(join(webDist, 'index.html'));
  const hasMesaPage = hasWeb && existsSync(join(webDist, 'mesa.html'));
  const mesaScripts = hasMesaPage ? inlineScriptHashes(readFileSync(join(webDist, 'mesa.html'), 'utf8')) : [];
  if (hasWeb) {
    // gzip/brotli for the web app's files (and large API answers).
    await app.register(fastifyCompress, { global: true, threshold: 1024 });
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders: (res, path) => {
        res.setHeader(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (
      hasWeb &&
      request.method === 'GET' &&
      !request.url.startsWith('/v1/') &&
      !request.url.startsWith('/socket.io') &&
      // A missing file (an old bundle's chunk) is a 404, never index.html served as JavaScript.
      !/\.[a-z0-9]+$/i.test(request.url.split('?')[0])
    ) {
      reply.header('cache-control', 'no-cache');
      // The table's QR menu has its own small page (issue 35: first load on 4G), not the app shell.
      if (hasMesaPage && /^\/mesa(\/|\?|$)/.test(request.url)) {
        const csp = reply.getHeader('content-security-policy');
        if (typeof csp === 'string' && mesaScripts.length > 0)
          reply.header(
            'content-security-policy',
            csp.replace("script-src 'self'", `script-src 'self' ${mesaScripts.join(' ')}`),
          );
        return reply.sendFile('mesa.html');
      }
      return reply.sendFile('index.html');
    }
    return reply.status(404).send(errorBody(404, 'Rota não encontrada', 'not_found'));
  });

  const built = app as unknown as App;
  built.io = io;
  built.ctx = ctx;
  built.routes = routes;
  return built;
}
