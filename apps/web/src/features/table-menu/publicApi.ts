import { tableMenuRoutes } from '@balcao/core/endpoints/tableMenuRoutes';
import type { TableOrderInput } from '@balcao/core/tableMenu';
import { call } from '../../lib/call.ts';
import { newIdempotencyKey } from '../../lib/idempotencyKey.ts';

/**
 * The customer's side of the QR menu (public: no session), through `call` and the endpoints' schema-free
 * declarations: the table page's entry (mesa.html) stays small (issue 35, first load on 4G).
 */
export const fetchTableMenu = (token: string) => call(tableMenuRoutes.menu, { params: { token } });
export const postTableOrder = (token: string, body: TableOrderInput, idempotencyKey: string) =>
  call(tableMenuRoutes.order, { params: { token }, body }, { idempotencyKey });
export const postTableCall = (token: string, kind: 'waiter' | 'bill') =>
  call(tableMenuRoutes.call, { params: { token }, body: { kind } });
export { newIdempotencyKey };
