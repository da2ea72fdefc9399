import { userApi } from '@balcao/core/endpoints/user';
import type { UserListQuery } from '@balcao/core/user';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryOf, useCall } from '../../lib/client.ts';

/** Staff users: query options per read of `userApi` (core's declarations) and one mutation per write. */
export const userQueries = {
  /** One page of the client's users (search, type and active filters). */
  list: (clientId: number, query: UserListQuery) => queryOf(userApi.list, { params: { clientId }, query }),
  /** One user; a 404 shows at once (no retry). */
  detail: (id: number) => ({ ...queryOf(userApi.get, { params: { id } }), retry: false }),
};

export function useUsers(clientId: number | undefined, query: UserListQuery) {
  return useQuery({
    ...userQueries.list(clientId ?? 0, query),
    enabled: Boolean(clientId),
    placeholderData: keepPreviousData,
  });
}

export function useUser(id: number | undefined) {
  return useQuery({ ...userQueries.detail(id ?? 0), enabled: Boolean(id) });
}

export const useCreateUser = () => useCall(userApi.create);
export const useUpdateUser = () => useCall(userApi.update);
/** Deletes, then the list reloads whatever happened. */
export const useDeleteUser = () => useCall(userApi.remove, { refreshOnError: true });
export const useChangeMyPassword = () => useCall(userApi.changePassword);
