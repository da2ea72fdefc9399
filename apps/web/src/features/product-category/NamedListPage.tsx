import { can, WRITE } from '@balcao/core/routes';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { ListPagination } from '../../components/ListPagination.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ActiveFilter, RowActions, SearchField, SortHeader } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/session.tsx';
import { type NamedListParams, type NamedRecord, useDeleteNamed, useNamedList } from './api.ts';
import type { NamedConfig } from './namedConfig.ts';

const PAGE_SIZES = [10, 20, 50, 100];
const SORTS = ['name', '-name', 'productCount', '-productCount'] as const;

function queryFromParams(params: URLSearchParams) {
  return {
    q: readParam.text(params, 'q'),
    sort: readParam.oneOf(params, 'sort', SORTS) ?? 'name',
    active: readParam.flag(params, 'active'),
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, PAGE_SIZES, 20),
  } satisfies NamedListParams;
}

/** Categories or brands: search, status filter, sort by name or product count, pages, delete. */
export function NamedListPage({ config }: { config: NamedConfig }) {
  const { user } = useSession();
  const clientId = user?.client.id;
  const canWrite = can(user?.userType.id, WRITE.catalog);
  const { query, update, toggleSort, search, setSearch, setPage, setPageSize } =
    useListParams(queryFromParams);
  const list = useNamedList(config.resource, clientId, query);
  const deletion = useDeleteNamed(config.resource);
  const [toDelete, setToDelete] = useState<NamedRecord | null>(null);
  const { state, show, close } = useFeedback();

  const confirmDelete = () => {
    if (!toDelete) return;
    const record = toDelete;
    setToDelete(null);
    deletion.mutate(record.id, {
      onSuccess: () => show({ severity: 'success', title: config.deleted }),
      onError: (error) =>
        show({ severity: 'error', title: 'Não foi possível excluir', message: errorMessage(error) }),
    });
  };

  let content: ReactNode;
  if (list.isPending) content = <Loading />;
  else if (list.isError) content = <LoadError error={list.error} onRetry={() => list.refetch()} />;
  else if (list.data.items.length === 0)
    content = (
      <Typography color="text.secondary" sx={{ p: 4, textAlign: 'center' }}>
        {config.empty}
      </Typography>
    );
  else
    content = (
      <>
        <TableContainer>
          <Table size="small" aria-label={config.title}>
            <TableHead>
              <TableRow>
                <SortHeader field="name" label="Nome" sort={query.sort} onSort={toggleSort} />
                <SortHeader
                  field="productCount"
                  label="Produtos"
                  sort={query.sort}
                  onSort={toggleSort}
                  align="right"
                />
                <TableCell>Status</TableCell>
                <TableCell align="right">Ações</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.items.map((record) => (
                <TableRow key={record.id} hover>
                  <TableCell>{record.name}</TableCell>
                  <TableCell align="right">{record.productCount}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={record.active ? 'Ativa' : 'Inativa'}
                      color={record.active ? 'success' : 'default'}
                    />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <RowActions
                      editTo={`${config.basePath}/edit/${record.id}`}
                      name={record.name}
                      canEdit={canWrite}
                      onDelete={canWrite ? () => setToDelete(record) : undefined}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        <ListPagination
          total={list.data.total}
          page={query.page}
          pageSize={query.pageSize}
          sizes={PAGE_SIZES}
          onPage={setPage}
          onPageSize={setPageSize}
        />
      </>
    );

  return (
    <Box>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2, gap: 2, flexWrap: 'wrap' }}
      >
        <Typography component="h1" variant="h5">
          {config.title}
        </Typography>
        {canWrite && (
          <Button
            component={RouterLink}
            to={`${config.basePath}/new`}
            variant="contained"
            startIcon={<AddIcon />}
          >
            {config.addLabel}
          </Button>
        )}
      </Stack>
      <Paper sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, mb: 2 }}>
          <SearchField value={search} onChange={setSearch} placeholder="Nome" sx={{ flex: 1 }} />
          <ActiveFilter
            value={query.active}
            onChange={(active) => update({ active })}
            feminine
            sx={{ minWidth: 160 }}
          />
        </Stack>
        {deletion.isPending ? <Loading text="Excluindo..." /> : content}
      </Paper>
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? config.deleteQuestion(toDelete.name) : ''}
        message="Esta ação não pode ser desfeita."
        confirmLabel="Excluir"
        destructive
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
