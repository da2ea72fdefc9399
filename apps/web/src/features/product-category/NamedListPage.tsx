import { can, WRITE } from '@balcao/core/routes';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useConfirmDelete } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Loading } from '../../components/Loading.tsx';
import {
  ActiveChip,
  ActiveFilter,
  ListHeader,
  ListQuery,
  ListTable,
  RowActions,
  SearchField,
  SortHeader,
} from '../../components/listPage.tsx';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
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
  const canWrite = can(user?.userType.id, config.write ?? WRITE.catalog);
  const { query, update, toggleSort, search, setSearch, pagination } = useListParams(queryFromParams);
  const list = useNamedList(config.resource, clientId, query);
  const deletion = useDeleteNamed(config.resource);
  const { state, show, close } = useFeedback();
  const removal = useConfirmDelete<NamedRecord>({
    title: (record) => (record ? config.deleteQuestion(record.name) : ''),
    message: () => 'Esta ação não pode ser desfeita.',
    remove: (record, callbacks) => deletion.mutate({ params: { id: record.id } }, callbacks),
    feedback: { show, done: () => config.deleted, failed: 'Não foi possível excluir' },
  });

  const content = (
    <ListQuery
      query={list}
      empty={
        <Typography color="text.secondary" sx={{ p: 4, textAlign: 'center' }}>
          {config.empty}
        </Typography>
      }
    >
      {(data) => (
        <ListTable
          label={config.title}
          head={
            <>
              <SortHeader field="name" label="Nome" sort={query.sort} onSort={toggleSort} />
              <SortHeader
                field="productCount"
                label={config.countLabel ?? 'Produtos'}
                sort={query.sort}
                onSort={toggleSort}
                align="right"
              />
              <TableCell>Status</TableCell>
              <TableCell align="right">Ações</TableCell>
            </>
          }
          pagination={pagination({ ...query, total: data.total }, PAGE_SIZES)}
        >
          {data.items.map((record) => (
            <TableRow key={record.id} hover>
              <TableCell>{record.name}</TableCell>
              <TableCell align="right">{record.productCount}</TableCell>
              <TableCell>
                <ActiveChip active={record.active} feminine />
              </TableCell>
              <RowActions
                editTo={`${config.basePath}/edit/${record.id}`}
                name={record.name}
                canEdit={canWrite}
                onDelete={canWrite ? () => removal.ask(record) : undefined}
              />
            </TableRow>
          ))}
        </ListTable>
      )}
    </ListQuery>
  );

  return (
    <Box>
      <ListHeader
        title={config.title}
        add={canWrite ? { to: `${config.basePath}/new`, label: config.addLabel } : undefined}
      />
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
      {removal.dialog}
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
