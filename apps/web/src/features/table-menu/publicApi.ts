import { tableMenuRoutes } from '@balcao/core/endpoints/tableMenuRoutes';
import type { TableMenu, TableOrderInput } from '@balcao/core/tableMenu';
import { call } from '../../lib/call.ts';
import { newIdempotencyKey } from '../../lib/idempotencyKey.ts';

/**
 * The customer's side of the QR menu (public: no session), through `call` and the endpoints' schema-free
 * declarations: the table page's entry (mesa.html) stays small (issue 35, first load on 4G).
 */
declare global {
  interface Window {
    /** The menu's request started by mesa.html's inline script, before this code loaded. */
    __mesaMenu?: Promise<Response>;
  }
}

/**
 * The table's menu: the answer mesa.html asked for early, once; on its failure (or none, or after the
 * first read) the call again, which gives the server's message.
 */
export async function fetchTableMenu(token: string): Promise<TableMenu> {
  const early = window.__mesaMenu;
  window.__mesaMenu = undefined;
  const res = early ? await early.catch(() => null) : null;
  if (res?.ok && new URL(res.url).pathname.endsWith(`/${encodeURIComponent(token)}`))
    return (await res.json()) as TableMenu;
  return call(tableMenuRoutes.menu, { params: { token } });
}
export const postTableOrder = (token: string, body: TableOrderInput, idempotencyKey: string) =>
  call(tableMenuRoutes.order, { params: { token }, body }, { idempotencyKey });
export const postTableCall = (token: string, kind: 'waiter' | 'bill') =>
  call(tableMenuRoutes.call, { params: { token }, body: { kind } });
export { newIdempotencyKey };
