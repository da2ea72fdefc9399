import type { tableMenuApi } from './tableMenu.ts';

/**
 * The QR menu's public endpoints without their schemas: what the table page's own small entry
 * (apps/web/mesa.html, issue 35: first load < 1.5 s on 4G) calls, as `authRoutes` does for /login. The
 * client needs no schema to call; `tableMenuApi` (tableMenu.ts) keeps the schemas the server validates
 * with, and types these (the same declarations), never their code.
 */
export const tableMenuRouteParts = {
  menu: { method: 'GET', path: '/public/table/:token', resource: 'comanda', access: 'public' },
  order: {
    method: 'POST',
    path: '/public/table/:token/order',
    resource: 'comanda',
    access: 'public',
    idempotencyKey: 'required',
  },
  call: { method: 'POST', path: '/public/table/:token/call', resource: 'comanda', access: 'public' },
} as const;

export const tableMenuRoutes = tableMenuRouteParts as unknown as Pick<
  typeof tableMenuApi,
  'menu' | 'order' | 'call'
>;
