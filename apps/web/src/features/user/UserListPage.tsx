import { can, WRITE } from '@balcao/core/routes';
import type { StaffUser, UserListQuery } from '@balcao/core/user';
import { canManageUserType } from '@balcao/core/user';
import { USER_TYPE_IDS, USER_TYPES, type UserTypeId } from '@balcao/core/userTypes';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { ListPagination } from '../../components/ListPagination.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ActiveFilter, RowActions, SearchField, useHandedOverMessage } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/session.tsx';
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
  const { query, update, search, setSearch, setPage, setPageSize } = useListParams(queryFromParams);
  const users = useUsers(clientId, query);
  const deletion = useDeleteUser();
  const { state: feedback, show, close } = useFeedback();
  const [toDelete, setToDelete] = useState<StaffUser | null>(null);
  useHandedOverMessage(show);

  const canManage = (u: StaffUser) =>
    canWrite && actorType !== undefined && canManageUserType(actorType, u.userType.id as UserTypeId);

  const confirmDelete = () => {
    if (!toDelete) return;
    const { id, name } = toDelete;
    setToDelete(null);
    deletion.mutate(id, {
      onSuccess: () => show({ severity: 'success', title: `Usuário ${name} excluído` }),
      onError: (error) =>
        show({ severity: 'error', title: 'Erro ao excluir usuário', message: errorMessage(error) }),
    });
  };

  let content: ReactNode;
  if (users.isPending) content = <Loading />;
  else if (users.isError)
    content = (
      <LoadError
        what="Não foi possível carregar os usuários."
        error={users.error}
        onRetry={() => users.refetch()}
      />
    );
  else if (users.data.items.length === 0)
    content = (
      <Paper sx={{ p: 4, textAlign: 'center' }}>
        <Typography>Nenhum usuário foi encontrado</Typography>
      </Paper>
    );
  else {
    const { items, total, page, pageSize } = users.data;
    content = (
      <Paper>
        <TableContainer>
          <Table size="small" aria-label="Usuários">
            <TableHead>
              <TableRow>
                <TableCell>Nome</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>Tipo</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Ações</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((u) => (
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
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowActions
                      editTo={`/dashboard/user/edit/${u.id}`}
                      name={u.name}
                      canEdit={canManage(u)}
                      onDelete={canManage(u) && u.id !== user?.id ? () => setToDelete(u) : undefined}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <ListPagination
          total={total}
          page={page}
          pageSize={pageSize}
          sizes={PAGE_SIZES}
          onPage={setPage}
          onPageSize={setPageSize}
        />
      </Paper>
    );
  }

  return (
    // Room at the bottom so the floating add button does not cover the last row's actions.
    <Box sx={{ pb: 8 }}>
      <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography component="h1" variant="h5">
          Usuários
        </Typography>
        {canWrite && (
          <Button variant="contained" component={RouterLink} to="/dashboard/user/new" startIcon={<AddIcon />}>
            Novo usuário
          </Button>
        )}
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <SearchField value={search} onChange={setSearch} placeholder="Nome ou email" sx={{ flex: 1 }} />
        <TextField
          select
          label="Tipo de usuário"
          size="small"
          value={query.userTypeId ?? ''}
          onChange={(e) => update({ userTypeId: e.target.value ? String(e.target.value) : undefined })}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">Todos</MenuItem>
          {USER_TYPE_IDS.map((id) => (
            <MenuItem key={id} value={id}>
              {USER_TYPES[id]}
            </MenuItem>
          ))}
        </TextField>
        <ActiveFilter value={query.active} onChange={(active) => update({ active })} sx={{ minWidth: 140 }} />
      </Stack>
      {content}
      <ConfirmDialog
        open={Boolean(toDelete)}
        title="Excluir usuário"
        message={`Excluir ${toDelete?.name ?? ''}? Ele perde o acesso na hora. Se ele já tem vendas, desative-o em vez de excluir.`}
        confirmLabel="Excluir"
        destructive
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
      <FeedbackSnackbar state={feedback} onClose={close} />
    </Box>
  );
}
