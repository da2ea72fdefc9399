import { can, WRITE } from '@balcao/core/routes';
import type { StaffUser, UserListQuery } from '@balcao/core/user';
import { canManageUserType } from '@balcao/core/user';
import { USER_TYPE_IDS, USER_TYPES, type UserTypeId } from '@balcao/core/userTypes';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useConfirmDelete } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  ActiveFilter,
  alignRight,
  ListFilters,
  ListHeader,
  ListQuery,
  ListTable,
  RowActions,
  SearchField,
  SelectFilter,
  useHandedOverMessage,
} from '../../components/listPage.tsx';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { useDeleteUser, useUsers } from './api.ts';

const PAGE_SIZES = [20, 50, 100];

function queryFromParams(params: URLSearchParams): UserListQuery {
  const type = readParam.id(params, 'userTypeId');
  return {
    q: readParam.text(params, 'q'),
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, PAGE_SIZES),
    userTypeId: USER_TYPE_IDS.includes(type as UserTypeId) ? type : undefined,
    active: readParam.oneOf(params, 'active', ['true', 'false'] as const),
  } as UserListQuery;
}

/** Staff users of the shop: search, filters by type and status; Administrador and Gerente manage them. */
export default function UserListPage() {
  const { user } = useSession();
  const clientId = user?.client.id;
  const actorType = user?.userType.id as UserTypeId | undefined;
  const canWrite = can(actorType, WRITE.users);
  const { query, update, search, setSearch, pagination } = useListParams(queryFromParams);
  const users = useUsers(clientId, query);
  const deletion = useDeleteUser();
  const { state: feedback, show, close } = useFeedback();
  const removal = useConfirmDelete<StaffUser>({
    title: () => 'Excluir usuário',
    message: (u) =>
      `Excluir ${u?.name ?? ''}? Ele perde o acesso na hora. Se ele já tem vendas, desative-o em vez de excluir.`,
    remove: (u, callbacks) => deletion.mutate({ params: { id: u.id } }, callbacks),
    feedback: { show, done: (u) => `Usuário ${u.name} excluído`, failed: 'Erro ao excluir usuário' },
  });
  useHandedOverMessage(show);

  const canManage = (u: StaffUser) =>
    canWrite && actorType !== undefined && canManageUserType(actorType, u.userType.id as UserTypeId);

  const content = (
    <ListQuery
      query={users}
      what="Não foi possível carregar os usuários."
      empty={
        <Paper sx={{ p: 4, textAlign: 'center' }}>
          <Typography>Nenhum usuário foi encontrado</Typography>
        </Paper>
      }
    >
      {(data) => (
        <Paper>
          <ListTable
            label="Usuários"
            head={['Nome', 'Email', 'Tipo', 'Status', alignRight('Ações')]}
            pagination={pagination(data, PAGE_SIZES)}
          >
            {data.items.map((u) => (
              <TableRow key={u.id} hover data-testid="user-row">
                <TableCell>
                  {u.name}
                  {u.id === user?.id && <Chip size="small" label="Você" sx={{ ml: 1 }} />}
                </TableCell>
                <TableCell>{u.email}</TableCell>
                <TableCell>{u.userType.name}</TableCell>
                <TableCell>
                  {u.active ? (
                    <Chip size="small" color="success" variant="outlined" label="Ativo" />
                  ) : (
                    <Chip size="small" label="Inativo" />
                  )}
                </TableCell>
                <RowActions
                  editTo={`/dashboard/user/edit/${u.id}`}
                  name={u.name}
                  canEdit={canManage(u)}
                  onDelete={canManage(u) && u.id !== user?.id ? () => removal.ask(u) : undefined}
                />
              </TableRow>
            ))}
          </ListTable>
        </Paper>
      )}
    </ListQuery>
  );

  return (
    // Room at the bottom so the floating add button does not cover the last row's actions.
    <Box sx={{ pb: 8 }}>
      <ListHeader
        title="Usuários"
        add={canWrite ? { to: '/dashboard/user/new', label: 'Novo usuário' } : undefined}
      />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <SearchField value={search} onChange={setSearch} placeholder="Nome ou email" sx={{ flex: 1 }} />
        <ListFilters active={[query.userTypeId, query.active].filter((v) => v !== undefined).length}>
          <SelectFilter
            label="Tipo de usuário"
            size="small"
            value={query.userTypeId as UserTypeId | undefined}
            options={USER_TYPE_IDS.map((id) => ({ value: id, label: USER_TYPES[id] }))}
            onChange={(userTypeId) => update({ userTypeId })}
            sx={{ minWidth: 200 }}
          />
          <ActiveFilter
            value={query.active}
            onChange={(active) => update({ active })}
            sx={{ minWidth: 140 }}
          />
        </ListFilters>
      </Stack>
      {content}
      {removal.dialog}
      <FeedbackSnackbar state={feedback} onClose={close} />
    </Box>
  );
}
