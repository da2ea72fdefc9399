import { addDays } from '@balcao/core/date';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ComponentProps, ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { errorMessage } from '../lib/api.ts';
import { shopToday } from '../lib/format.ts';
import { readParam } from '../lib/listParams.ts';
import { ListHeader } from './ListHeader.tsx';
import type { ListPagination } from './ListPagination.tsx';
import { ExportButton, ListFilters, ListQuery, ListTable, recordOptions, SelectFilter } from './listPage.tsx';

/**
 * The parts of a list of documents over a period (sales, budgets): the title row with "Exportar CSV"
 * and the button that starts a new one, the filters (period, the list's own selects, seller, search),
 * the chip of the customer the list was opened for with the export's error, the totals of the filter
 * and the table. They share the page's `list` (the sale feature's usePeriodList).
 */

/** The page sizes of a period list. */
export const PERIOD_PAGE_SIZES = [20, 50, 100];

/** The keys every period list reads from the URL; without dates the last 30 days (all, for one customer). */
export function readPeriodParams(params: URLSearchParams) {
  const customerId = readParam.id(params, 'customerId');
  return {
    q: readParam.text(params, 'q'),
    from: readParam.date(params, 'from', customerId ? undefined : addDays(shopToday(), -30)),
    to: readParam.date(params, 'to', shopToday()),
    sellerId: readParam.id(params, 'sellerId'),
    customerId,
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, PERIOD_PAGE_SIZES),
  };
}

/** What the parts read of the page's state (useListParams' plus the export's error and the sellers). */
export type PeriodList = {
  clientId: number | undefined;
  filters: {
    from?: string;
    to?: string;
    sellerId?: number;
    customerId?: number;
    page: number;
    pageSize: number;
  };
  update: (changes: Record<string, string | undefined>) => void;
  search: string;
  setSearch: (text: string) => void;
  pagination: (
    shown: { total: number; page: number; pageSize: number },
    sizes: number[],
  ) => ComponentProps<typeof ListPagination>;
  exportError: string | null;
  setExportError: (error: string | null) => void;
  sellers: { data?: { items: { id: number; name: string }[] } };
};

/** The title (h1), "Exportar CSV" (`download`) and, when given (the user may write), the button that starts a new one. */
export function PeriodListHeader({
  title,
  list,
  download,
  action,
}: {
  title: string;
  list: PeriodList;
  download: () => Promise<unknown>;
  action?: { to: string; label: string; icon: ReactNode };
}) {
  return (
    <ListHeader title={title} add={action} roomy>
      <ExportButton
        variant="outlined"
        download={() => {
          list.setExportError(null);
          return download();
        }}
        onError={(error) => list.setExportError(errorMessage(error))}
        disabled={!list.clientId}
      />
    </ListHeader>
  );
}

/**
 * The filters' box: the period ("De", "Até"), the list's own selects (`children`, counted in `active`
 * with the seller), the seller (once the sellers are known) and the search box (`searchLabel`).
 */
export function PeriodFilterBox({
  list,
  active,
  columns,
  searchLabel,
  children,
}: {
  list: PeriodList;
  active: number;
  /** How many fields share a row on a large screen. */
  columns: number;
  searchLabel: string;
  children: ReactNode;
}) {
  const { filters, update } = list;
  const sellers = list.sellers.data;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: '1fr',
            sm: '1fr 1fr',
            md: 'repeat(3, 1fr)',
            lg: `repeat(${columns}, 1fr)`,
          },
        }}
      >
        <ListFilters active={active}>
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
          {children}
          {sellers && (
            <SelectFilter
              label="Vendedor"
              value={filters.sellerId}
              options={recordOptions(sellers.items)}
              onChange={(sellerId) => update({ sellerId })}
            />
          )}
        </ListFilters>
        <TextField label={searchLabel} value={list.search} onChange={(e) => list.setSearch(e.target.value)} />
      </Box>
    </Paper>
  );
}

/**
 * "Cliente: name" while the list is filtered by a customer (`customerName` when a row shows it, else
 * the number; deleting it keeps the period as shown, all dates when the customer's link brought
 * none), then the export's error.
 */
export function PeriodListNotices({
  list,
  customerName,
}: {
  list: PeriodList;
  customerName: string | undefined;
}) {
  const { filters, update } = list;
  return (
    <>
      {filters.customerId && (
        <Chip
          sx={{ mb: 2 }}
          label={`Cliente: ${customerName ?? `nº ${filters.customerId}`}`}
          onDelete={() => update({ customerId: undefined, from: filters.from ?? '' })}
        />
      )}
      {list.exportError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {list.exportError}
        </Alert>
      )}
    </>
  );
}

/** The totals of the filter: a row of `TotalCard`s. */
export function TotalsBar({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        mb: 2,
        gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' },
      }}
      aria-label="Totais do filtro"
    >
      {children}
    </Box>
  );
}

export function TotalCard({ label, value, testId }: { label: string; value: string; testId?: string }) {
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

/**
 * The list's table (`label`, `head`) of `query`'s rows, each drawn by `row`, paged; a spinner while it
 * loads, the error (`what` failed) with a retry, or `empty` when no row matches.
 */
export function PeriodTable<D extends { items: readonly unknown[]; total: number }>({
  list,
  query,
  what,
  empty,
  label,
  head,
  row,
}: {
  list: PeriodList;
  query: UseQueryResult<D>;
  what: string;
  empty: string;
  label: string;
  head: ComponentProps<typeof ListTable>['head'];
  row: (item: D['items'][number]) => ReactNode;
}) {
  return (
    <ListQuery
      query={query}
      what={what}
      empty={
        <Paper sx={{ p: 6, textAlign: 'center' }}>
          <Typography>{empty}</Typography>
        </Paper>
      }
    >
      {(data) => (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <ListTable
            label={label}
            head={head}
            pagination={list.pagination({ ...list.filters, total: data.total }, PERIOD_PAGE_SIZES)}
          >
            {data.items.map(row)}
          </ListTable>
        </Paper>
      )}
    </ListQuery>
  );
}

/**
 * A document's row (a sale, a budget): a click anywhere opens `to`, the first cell is its `number`
 * linked there (a link's own click stays out of the row's); `children`, the other cells.
 */
export function DocumentRow({
  to,
  number,
  children,
}: {
  to: string;
  number: ReactNode;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <TableRow hover sx={{ cursor: 'pointer' }} onClick={() => navigate(to)}>
      <TableCell>
        <RouterLink to={to} onClick={(e) => e.stopPropagation()}>
          {number}
        </RouterLink>
      </TableCell>
      {children}
    </TableRow>
  );
}
