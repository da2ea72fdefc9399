import type { ListResult } from '@balcao/core/list';
import { toQueryString } from '@balcao/core/list';
import type {
  ChangePasswordInput,
  StaffUser,
  UserCreateInput,
  UserListQuery,
  UserUpdateInput,
} from '@balcao/core/user';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api.ts';
import { detailQuery, listQuery } from '../../lib/queries.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

export const userKeys = queryKeys('user');

export const fetchUsers = (clientId: number, query: UserListQuery) =>
  apiFetch<ListResult<StaffUser>>(
    `/user/client/${clientId}${toQueryString(query as Record<string, string | number | undefined>)}`,
  );
export const fetchUser = (id: number) => apiFetch<StaffUser>(`/user/${id}`);
export const postUser = (body: UserCreateInput) => apiFetch<StaffUser>('/user', { method: 'POST', body });
export const putUser = (id: number, body: UserUpdateInput) =>
  apiFetch<StaffUser>(`/user/${id}`, { method: 'PUT', body });
export const removeUser = (id: number) => apiFetch<{ id: number }>(`/user/${id}`, { method: 'DELETE' });
export const changeMyPassword = (body: ChangePasswordInput) =>
  apiFetch<{ ok: true }>('/user/me/password', { method: 'POST', body });

export function useUsers(clientId: number | undefined, query: UserListQuery) {
  return useQuery(listQuery(userKeys, clientId, query, fetchUsers));
}

export function useUser(id: number | undefined) {
  return useQuery(detailQuery(userKeys, id, fetchUser));
}

function useSaved() {
  const queryClient = useQueryClient();
  return (user: StaffUser) => {
    queryClient.setQueryData(userKeys.detail(user.id), user);
    return queryClient.invalidateQueries({ queryKey: userKeys.lists() });
  };
}

export function useCreateUser() {
  const onSuccess = useSaved();
  return useMutation({ mutationFn: postUser, onSuccess });
}

export function useUpdateUser() {
  const onSuccess = useSaved();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UserUpdateInput }) => putUser(id, body),
    onSuccess,
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeUser,
    onSettled: (_data, _error, id) => {
      queryClient.removeQueries({ queryKey: userKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: userKeys.lists() });
    },
  });
}

export function useChangeMyPassword() {
  return useMutation({ mutationFn: changeMyPassword });
}
