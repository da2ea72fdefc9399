import type { CallInput } from '@balcao/core/contract';
import { accountApi } from '@balcao/core/endpoints/account';
import { call } from '../../lib/call.ts';

/**
 * Sign-up: the company and its Administrador, answered with the new session. The page is public,
 * outside the dashboard's query client, so this is a plain call (nothing cached to refresh).
 */
export const createAccount = (body: CallInput<typeof accountApi.create>['body']) =>
  call(accountApi.create, { body });
