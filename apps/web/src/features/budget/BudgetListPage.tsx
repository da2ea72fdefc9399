import {
  BUDGET_STATUS_LABELS,
  BUDGET_VIEW_STATUSES,
  type BudgetViewStatus,
  conversionRateText,
} from '@balcao/core/budget';
import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import { alignRight, labelledOptions, SelectFilter } from '../../components/listPage.tsx';
import {
  DocumentRow,
  PeriodFilterBox,
  PeriodListHeader,
  PeriodListNotices,
  PeriodTable,
  readPeriodParams,
  TotalCard,
  TotalsBar,
} from '../../components/periodList.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { readParam } from '../../lib/listParams.ts';
import { usePeriodList } from '../sale/index.ts';
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

/** The list's state in the URL; without dates it shows the last 30 days. */
function queryFromParams(params: URLSearchParams): BudgetListFilters {
  return { ...readPeriodParams(params), status: readParam.oneOf(params, 'status', BUDGET_VIEW_STATUSES) };
}

/** /dashboard/budget: period, status, customer and seller filters; totals and conversion rate; CSV. */
export default function BudgetListPage() {
  const list = usePeriodList(queryFromParams);
  const { user, filters, update } = list;
  const budgets = useBudgets(list.clientId, filters);
  const totals = budgets.data?.totals;

  return (
    <Box>
      <PeriodListHeader
        title="Orçamentos"
        list={list}
        download={() => downloadBudgetsCsv(filters)}
        action={
          can(user?.userType.id, WRITE.budgets)
            ? { to: '/dashboard/budget/pdv', label: 'Novo orçamento', icon: <AddIcon /> }
            : undefined
        }
      />

      <PeriodFilterBox
        list={list}
        active={[filters.status, filters.sellerId].filter((v) => v !== undefined).length}
        columns={5}
        searchLabel="Nº do orçamento ou cliente"
      >
        <SelectFilter
          label="Status"
          value={filters.status}
          options={labelledOptions(BUDGET_VIEW_STATUSES, BUDGET_STATUS_LABELS)}
          onChange={(status) => update({ status })}
        />
      </PeriodFilterBox>

      <PeriodListNotices
        list={list}
        customerName={budgets.data?.items.find((b) => b.customer?.id === filters.customerId)?.customer?.name}
      />

      {totals && (
        <TotalsBar>
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
        </TotalsBar>
      )}

      <PeriodTable
        list={list}
        query={budgets}
        what="Não foi possível carregar os orçamentos."
        empty="Nenhum orçamento encontrado"
        label="Orçamentos"
        head={['Nº', 'Data', 'Cliente', 'Vendedor', 'Validade', 'Status', alignRight('Total')]}
        row={(b) => (
          <DocumentRow key={b.id} to={`/dashboard/budget/detail/${b.id}`} number={b.number}>
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
          </DocumentRow>
        )}
      />
    </Box>
  );
}
