import { ALL } from '../routes.ts';
import type { authApi } from './auth.ts';
import type { shippingApi } from './shipping.ts';

/**
 * The session's endpoints without their schemas: what the login page's JS calls. /login stays under
 * 150 KB of gzipped JS only without zod (docs/architecture.md), and the client needs no schema to call
 * (method, path, resource and changes). `authApi` (auth.ts) adds the summaries and schemas: the server validates
 * with them, and `authRoutes` carries their types (the same declarations), never their code.
 */
export const authRouteParts = {
  login: {
    method: 'POST',
    path: '/login',
    resource: 'auth',
    access: 'public',
    changes: [],
  },
  logout: {
    method: 'POST',
    path: '/logout',
    resource: 'auth',
    access: 'public',
    changes: [],
  },
  me: {
    method: 'GET',
    path: '/user/me',
    resource: 'auth',
    access: ALL,
  },
} as const;

/** `authApi` as the web calls it: the same declarations, typed with their schemas, none at run time. */
export const authRoutes = authRouteParts as unknown as typeof authApi;

/**
 * The shop's delivery rule sets the session carries (shipping's `ruleSets`, the same declaration
 * without its schemas at run time, for the same reason as `authRoutes`).
 */
export const sessionShippingRules = {
  method: 'GET',
  path: '/shipping-settings/client/:clientId',
  resource: 'shipping-settings',
  access: ALL,
} as unknown as typeof shippingApi.ruleSets;
