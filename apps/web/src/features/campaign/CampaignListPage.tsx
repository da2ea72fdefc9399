import { CAMPAIGN_STATUS_LABELS, CAMPAIGN_STATUSES, type CampaignListItem } from '@balcao/core/campaign';
import { can, WRITE } from '@balcao/core/routes';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useConfirmDelete } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  ListHeader,
  ListQuery,
  ListTable,
  labelledOptions,
  RowActions,
  SearchField,
  SelectFilter,
  SortHeader,
  useHandedOverMessage,
} from '../../components/listPage.tsx';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { type CampaignListParams, useCampaigns, useDeleteCampaign } from './api.ts';

const PAGE_SIZES = [10, 20, 50];
const SORTS = ['name', '-name', 'createdAt', '-createdAt'] as const;

function queryFromParams(params: URLSearchParams) {
  return {
    q: readParam.text(params, 'q'),
    sort: readParam.oneOf(params, 'sort', SORTS) ?? '-createdAt',
    status: readParam.oneOf(params, 'status', CAMPAIGN_STATUSES),
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, PAGE_SIZES, 20),
  } satisfies CampaignListParams;
}

export const STATUS_COLORS = {
  draft: 'default',
  scheduled: 'info',
  running: 'primary',
  paused: 'warning',
  finished: 'success',
  canceled: 'default',
} as const;

/** The progress of a campaign: sent + failed + skipped over the total. */
export function doneShare(p: CampaignListItem['progress']): number {
  return p.total === 0 ? 0 : Math.round(((p.success + p.failed + p.skipped) / p.total) * 100);
}

/** /dashboard/campaign */
export default function CampaignListPage() {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.campaigns);
  const { query, update, toggleSort, search, setSearch, pagination } = useListParams(queryFromParams);
  const list = useCampaigns(user?.client.id, query);
  const deletion = useDeleteCampaign();
  const { state, show, close } = useFeedback();
  useHandedOverMessage(show);
  const removal = useConfirmDelete<CampaignListItem>({
    title: (c) => (c ? `Excluir a campanha "${c.name}"?` : ''),
    message: () => 'Esta ação não pode ser desfeita.',
    remove: (c, callbacks) => deletion.mutate({ params: { id: c.id } }, callbacks),
    feedback: { show, done: () => 'Campanha excluída', failed: 'Não foi possível excluir' },
  });

  return (
    <Box>
      <ListHeader
        title="Campanhas"
        add={canWrite ? { to: '/dashboard/campaign/new', label: 'Nova campanha' } : undefined}
      />
      <Paper sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, mb: 2 }}>
          <SearchField value={search} onChange={setSearch} placeholder="Nome" sx={{ flex: 1 }} />
          <SelectFilter
            size="small"
            label="Situação"
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
            value={query.status}
            options={labelledOptions(CAMPAIGN_STATUSES, CAMPAIGN_STATUS_LABELS)}
            onChange={(status) => update({ status: status as typeof query.status })}
            sx={{ minWidth: 180 }}
            allLabel="Todas"
          />
        </Stack>
        <ListQuery
          query={list}
          empty={
            <Typography color="text.secondary" sx={{ p: 4, textAlign: 'center' }}>
              Nenhuma campanha foi encontrada
            </Typography>
          }
        >
          {(data) => (
            <ListTable
              label="Campanhas"
              head={
                <>
                  <SortHeader field="name" label="Nome" sort={query.sort} onSort={toggleSort} />
                  <TableCell>Categoria</TableCell>
                  <TableCell>Situação</TableCell>
                  <TableCell sx={{ minWidth: 160 }}>Progresso</TableCell>
                  <TableCell align="right">Ações</TableCell>
                </>
              }
              pagination={pagination({ ...query, total: data.total }, PAGE_SIZES)}
            >
              {data.items.map((c) => (
                <TableRow key={c.id} hover>
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{c.category?.name ?? '-'}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATUS_COLORS[c.status]}
                      label={CAMPAIGN_STATUS_LABELS[c.status]}
                    />
                  </TableCell>
                  <TableCell>
                    {c.progress.total > 0 ? (
                      <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
                        <LinearProgress
                          variant="determinate"
                          value={doneShare(c.progress)}
                          sx={{ flex: 1 }}
                          aria-label={`Progresso do envio de ${c.name}`}
                          aria-valuetext={`${c.progress.success} de ${c.progress.total} enviadas`}
                        />
                        <Typography variant="body2">
                          {c.progress.success}/{c.progress.total}
                        </Typography>
                      </Stack>
                    ) : (
                      '-'
                    )}
                  </TableCell>
                  <RowActions
                    editTo={`/dashboard/campaign/edit/${c.id}`}
                    name={c.name}
                    canEdit={canWrite}
                    onDelete={
                      canWrite && c.status !== 'running' && c.status !== 'paused'
                        ? () => removal.ask(c)
                        : undefined
                    }
                  />
                </TableRow>
              ))}
            </ListTable>
          )}
        </ListQuery>
      </Paper>
      {removal.dialog}
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
