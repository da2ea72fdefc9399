import { formatCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import {
  OFFLINE_FLAG_LABELS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS_IN_PDV,
  SALE_STATUS_LABELS,
  SALE_STATUSES,
  type SaleStatus,
} from '@balcao/core/sale';
import PointOfSaleIcon from '@mui/icons-material/PointOfSale';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
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
import { downloadSalesCsv, type SaleListQuery, useSales } from './api.ts';
import { usePeriodList } from './periodList.ts';

export const STATUS_COLORS: Record<SaleStatus, 'success' | 'warning' | 'default'> = {
  finished: 'success',
  pending: 'warning',
  canceled: 'default',
};

/**
 * The list's state in the URL; other pages link here with filters (/dashboard/sale?customerId=7&status=pending).
 * Without dates it shows the last 30 days (all of them for one customer); an emptied date stays empty.
 */
function queryFromParams(params: URLSearchParams): SaleListQuery {
  return {
    ...readPeriodParams(params),
    status: readParam.oneOf(params, 'status', SALE_STATUSES),
    paymentMethod: readParam.oneOf(params, 'paymentMethod', PAYMENT_METHODS_IN_PDV),
  };
}

/** /dashboard/sale: period, status, payment method, seller and customer filters; totals; CSV. */
export default function SaleListPage() {
  const list = usePeriodList(queryFromParams);
  const { user, filters, update } = list;
  const sales = useSales(list.clientId, filters);

  const totals = sales.data?.totals;
  return (
    <Box>
      <PeriodListHeader
        title="Vendas"
        list={list}
        download={() => downloadSalesCsv(list.clientId!, filters)}
        action={
          can(user?.userType.id, WRITE.sales)
            ? { to: '/dashboard/sale/pdv', label: 'Abrir PDV', icon: <PointOfSaleIcon /> }
            : undefined
        }
      />

      <PeriodFilterBox
        list={list}
        active={
          [filters.status, filters.paymentMethod, filters.sellerId].filter((v) => v !== undefined).length
        }
        columns={6}
        searchLabel="Nº da venda ou cliente"
      >
        <SelectFilter
          label="Status"
          value={filters.status}
          options={labelledOptions(SALE_STATUSES, SALE_STATUS_LABELS)}
          onChange={(status) => update({ status })}
        />
        <SelectFilter
          label="Forma de pagamento"
          value={filters.paymentMethod}
          options={labelledOptions(PAYMENT_METHODS_IN_PDV, PAYMENT_METHOD_LABELS)}
          onChange={(paymentMethod) => update({ paymentMethod })}
          allLabel="Todas"
        />
      </PeriodFilterBox>

      <PeriodListNotices
        list={list}
        customerName={sales.data?.items.find((s) => s.customer?.id === filters.customerId)?.customer?.name}
      />

      {totals && (
        <TotalsBar>
          <TotalCard label="Vendas" value={String(totals.activeCount)} />
          <TotalCard label="Faturamento" value={formatCents(totals.activeAmountCents)} testId="sales-total" />
          <TotalCard label="Pendentes" value={formatCents(totals.byStatus.pending.amountCents)} />
          <TotalCard label="Canceladas" value={`${totals.byStatus.canceled.count}`} />
          {totals.returnedCents > 0 && (
            <TotalCard label="Devoluções" value={formatCents(totals.returnedCents)} testId="sales-returned" />
          )}
        </TotalsBar>
      )}

      <PeriodTable
        list={list}
        query={sales}
        what="Não foi possível carregar as vendas."
        empty="Nenhuma venda encontrada"
        label="Vendas"
        head={['Nº', 'Data', 'Cliente', 'Vendedor', 'Pagamento', 'Status', alignRight('Total')]}
        row={(s) => (
          <DocumentRow key={s.id} to={`/dashboard/sale/detail/${s.id}`} number={s.number}>
            <TableCell>{formatDateTime(s.createdAt)}</TableCell>
            <TableCell>{s.customer?.name ?? (s.isSimple ? 'Venda simples' : '—')}</TableCell>
            <TableCell>{(s.seller ?? s.user).name}</TableCell>
            <TableCell>{s.paymentMethods.map((m) => PAYMENT_METHOD_LABELS[m]).join(', ')}</TableCell>
            <TableCell>
              <Chip size="small" color={STATUS_COLORS[s.status]} label={SALE_STATUS_LABELS[s.status]} />
              {s.madeOffline && (
                <Chip
                  size="small"
                  variant="outlined"
                  color={s.offlineFlags.length > 0 ? 'warning' : 'default'}
                  label={s.offlineFlags.length > 0 ? 'Sem conexão · divergência' : 'Sem conexão'}
                  title={s.offlineFlags.map((f) => OFFLINE_FLAG_LABELS[f]).join(', ')}
                  sx={{ ml: 0.5 }}
                  data-testid="sale-offline-chip"
                />
              )}
            </TableCell>
            <TableCell
              align="right"
              sx={{ textDecoration: s.status === 'canceled' ? 'line-through' : undefined }}
            >
              {formatCents(s.finalAmountCents)}
            </TableCell>
          </DocumentRow>
        )}
      />
    </Box>
  );
}
