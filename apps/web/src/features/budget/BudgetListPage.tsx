import {
  BUDGET_STATUS_LABELS,
  BUDGET_VIEW_STATUSES,
  type BudgetViewStatus,
  conversionRateText,
} from '@balcao/core/budget';
import { addDays, formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ExportButton, ListFilters, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime, shopToday } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { useSellers } from '../sale/index.ts';
import { type BudgetListFilters, downloadBudgetsCsv, useBudgets } from './api.ts';

export const BUDGET_STATUS_COLORS: Record<
  BudgetViewStatus,
  'success' | 'warning' | 'info' | 'default' | 'error'
> = {
  pending: 'warning',
  sent: 'info',
  finished: 'success',
  canceled: 'default',
  expired: 'error',
};

const PAGE_SIZES = [20, 50, 100];

/** The list's state in the URL; without dates it shows the last 30 days. */
function queryFromParams(params: URLSearchParams): BudgetListFilters {
  const customerId = readParam.id(params, 'customerId');
  return {
    q: readParam.text(params, 'q'),
    from: readParam.date(params, 'from', customerId ? undefined : addDays(shopToday(), -30)),
    to: readParam.date(params, 'to', shopToday()),
    status: readParam.oneOf(params, 'status', BUDGET_VIEW_STATUSES),
    sellerId: readParam.id(params, 'sellerId'),
    customerId,
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, PAGE_SIZES),
  };
}

/** /dashboard/budget: period, status, customer and seller filters; totals and conversion rate; CSV. */
export default function BudgetListPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const clientId = user?.client.id;
  const { query: filters, update, search, setSearch, pagination } = useListParams(queryFromParams);
  const [exportError, setExportError] = useState<string | null>(null);
  const budgets = useBudgets(clientId, filters);
  const sellers = useSellers(clientId, user?.userType.id);
  const totals = budgets.data?.totals;

  return (
    <Box>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 3, gap: 2, flexWrap: 'wrap' }}
      >
        <Typography component="h1" variant="h5">
          Orçamentos
        </Typography>
        <Stack direction="row" spacing={1}>
          <ExportButton
            variant="outlined"
            download={() => {
              setExportError(null);
              return downloadBudgetsCsv(filters);
            }}
            onError={(error) => setExportError(errorMessage(error))}
            disabled={!clientId}
          />
          {can(user?.userType.id, WRITE.budgets) && (
            <Button
              component={RouterLink}
              to="/dashboard/budget/pdv"
              variant="contained"
              startIcon={<AddIcon />}
            >
              Novo orçamento
            </Button>
          )}
        </Stack>
      </Stack>

      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)', lg: 'repeat(5, 1fr)' },
          }}
        >
          <ListFilters active={[filters.status, filters.sellerId].filter((v) => v !== undefined).length}>
            <TextField
              type="date"
              label="De"
              value={filters.from ?? ''}
              onChange={(e) => update({ from: e.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              type="date"
              label="Até"
              value={filters.to ?? ''}
              onChange={(e) => update({ to: e.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              select
              label="Status"
              value={filters.status ?? ''}
              onChange={(e) => update({ status: e.target.value || undefined })}
            >
              <MenuItem value="">Todos</MenuItem>
              {BUDGET_VIEW_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {BUDGET_STATUS_LABELS[s]}
                </MenuItem>
              ))}
            </TextField>
            {sellers.data && (
              <TextField
                select
                label="Vendedor"
                value={filters.sellerId ?? ''}
                onChange={(e) => update({ sellerId: e.target.value ? String(e.target.value) : undefined })}
              >
                <MenuItem value="">Todos</MenuItem>
                {sellers.data.items.map((u) => (
                  <MenuItem key={u.id} value={u.id}>
                    {u.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </ListFilters>
          <TextField
            label="Nº do orçamento ou cliente"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </Box>
      </Paper>

      {filters.customerId && (
        <Chip
          sx={{ mb: 2 }}
          label={`Cliente: ${budgets.data?.items.find((b) => b.customer?.id === filters.customerId)?.customer?.name ?? `nº ${filters.customerId}`}`}
          onDelete={() => update({ customerId: undefined, from: filters.from ?? '' })}
        />
      )}
      {exportError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {exportError}
        </Alert>
      )}

      {totals && (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            mb: 2,
            gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' },
          }}
          aria-label="Totais do filtro"
        >
          <TotalCard label="Orçamentos" value={String(totals.count)} />
          <TotalCard label="Valor orçado" value={formatCents(totals.finalAmountCents)} />
          <TotalCard
            label="Convertidos"
            value={`${totals.convertedCount} · ${formatCents(totals.convertedAmountCents)}`}
          />
          <TotalCard
            label="Taxa de conversão"
            value={conversionRateText(totals.conversionRate)}
            testId="budget-conversion-rate"
          />
        </Box>
      )}

      {budgets.isPending ? (
        <Loading />
      ) : budgets.isError ? (
        <LoadError
          what="Não foi possível carregar os orçamentos."
          error={budgets.error}
          onRetry={() => budgets.refetch()}
        />
      ) : budgets.data.items.length === 0 ? (
        <Paper sx={{ p: 6, textAlign: 'center' }}>
          <Typography>Nenhum orçamento encontrado</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <ListTable
            label="Orçamentos"
            head={['Nº', 'Data', 'Cliente', 'Vendedor', 'Validade', 'Status', alignRight('Total')]}
            pagination={pagination({ ...filters, total: budgets.data.total }, PAGE_SIZES)}
          >
            {budgets.data.items.map((b) => (
              <TableRow
                key={b.id}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => navigate(`/dashboard/budget/detail/${b.id}`)}
              >
                <TableCell>
                  <RouterLink to={`/dashboard/budget/detail/${b.id}`} onClick={(e) => e.stopPropagation()}>
                    {b.number}
                  </RouterLink>
                </TableCell>
                <TableCell>{formatDateTime(b.createdAt)}</TableCell>
                <TableCell>{b.customer?.name ?? '—'}</TableCell>
                <TableCell>{(b.seller ?? b.user).name}</TableCell>
                <TableCell>{formatDateBr(b.validUntil)}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                    <Chip
                      size="small"
                      color={BUDGET_STATUS_COLORS[b.viewStatus]}
                      label={BUDGET_STATUS_LABELS[b.viewStatus]}
                    />
                    {b.answer === 'approved' && (
                      <Chip size="small" color="success" variant="outlined" label="Aprovado" />
                    )}
                    {b.answer === 'refused' && (
                      <Chip size="small" color="error" variant="outlined" label="Recusado" />
                    )}
                    {!b.answer && b.viewedAt && <Chip size="small" variant="outlined" label="Visualizado" />}
                  </Stack>
                </TableCell>
                <TableCell align="right">{formatCents(b.finalAmountCents)}</TableCell>
              </TableRow>
            ))}
          </ListTable>
        </Paper>
      )}
    </Box>
  );
}

function TotalCard({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" data-testid={testId}>
        {value}
      </Typography>
    </Paper>
  );
}
