import { addDays } from '@balcao/core/date';
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
import { downloadSalesCsv, type SaleListQuery, useSales, useSellers } from './api.ts';

export const STATUS_COLORS: Record<SaleStatus, 'success' | 'warning' | 'default'> = {
  finished: 'success',
  pending: 'warning',
  canceled: 'default',
};

const PAGE_SIZES = [20, 50, 100];

/**
 * The list's state in the URL; other pages link here with filters (/dashboard/sale?customerId=7&status=pending).
 * Without dates it shows the last 30 days (all of them for one customer); an emptied date stays empty.
 */
function queryFromParams(params: URLSearchParams): SaleListQuery {
  const customerId = readParam.id(params, 'customerId');
  return {
    q: readParam.text(params, 'q'),
    from: readParam.date(params, 'from', customerId ? undefined : addDays(shopToday(), -30)),
    to: readParam.date(params, 'to', shopToday()),
    status: readParam.oneOf(params, 'status', SALE_STATUSES),
    paymentMethod: readParam.oneOf(params, 'paymentMethod', PAYMENT_METHODS_IN_PDV),
    sellerId: readParam.id(params, 'sellerId'),
    customerId,
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, PAGE_SIZES),
  };
}

/** /dashboard/sale: period, status, payment method, seller and customer filters; totals; CSV. */
export default function SaleListPage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const clientId = user?.client.id;
  const { query: filters, update, search, setSearch, pagination } = useListParams(queryFromParams);
  const [exportError, setExportError] = useState<string | null>(null);
  const sales = useSales(clientId, filters);
  const sellers = useSellers(clientId, user?.userType.id);

  const totals = sales.data?.totals;
  return (
    <Box>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 3, gap: 2, flexWrap: 'wrap' }}
      >
        <Typography component="h1" variant="h5">
          Vendas
        </Typography>
        <Stack direction="row" spacing={1}>
          <ExportButton
            variant="outlined"
            download={() => {
              setExportError(null);
              return downloadSalesCsv(clientId!, filters);
            }}
            onError={(error) => setExportError(errorMessage(error))}
            disabled={!clientId}
          />
          {can(user?.userType.id, WRITE.sales) && (
            <Button
              component={RouterLink}
              to="/dashboard/sale/pdv"
              variant="contained"
              startIcon={<PointOfSaleIcon />}
            >
              Abrir PDV
            </Button>
          )}
        </Stack>
      </Stack>

      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)', lg: 'repeat(6, 1fr)' },
          }}
        >
          <ListFilters
            active={
              [filters.status, filters.paymentMethod, filters.sellerId].filter((v) => v !== undefined).length
            }
          >
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
              {SALE_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {SALE_STATUS_LABELS[s]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Forma de pagamento"
              value={filters.paymentMethod ?? ''}
              onChange={(e) => update({ paymentMethod: e.target.value || undefined })}
            >
              <MenuItem value="">Todas</MenuItem>
              {PAYMENT_METHODS_IN_PDV.map((m) => (
                <MenuItem key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
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
            label="Nº da venda ou cliente"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </Box>
      </Paper>

      {filters.customerId && (
        <Chip
          sx={{ mb: 2 }}
          label={`Cliente: ${sales.data?.items.find((s) => s.customer?.id === filters.customerId)?.customer?.name ?? `nº ${filters.customerId}`}`}
          // The period stays as shown (all dates when the customer's link brought none).
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
          <TotalCard label="Vendas" value={String(totals.activeCount)} />
          <TotalCard label="Faturamento" value={formatCents(totals.activeAmountCents)} testId="sales-total" />
          <TotalCard label="Pendentes" value={formatCents(totals.byStatus.pending.amountCents)} />
          <TotalCard label="Canceladas" value={`${totals.byStatus.canceled.count}`} />
        </Box>
      )}

      {sales.isPending ? (
        <Loading />
      ) : sales.isError ? (
        <LoadError
          what="Não foi possível carregar as vendas."
          error={sales.error}
          onRetry={() => sales.refetch()}
        />
      ) : sales.data.items.length === 0 ? (
        <Paper sx={{ p: 6, textAlign: 'center' }}>
          <Typography>Nenhuma venda encontrada</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <ListTable
            label="Vendas"
            head={['Nº', 'Data', 'Cliente', 'Vendedor', 'Pagamento', 'Status', alignRight('Total')]}
            pagination={pagination({ ...filters, total: sales.data.total }, PAGE_SIZES)}
          >
            {sales.data.items.map((s) => (
              <TableRow
                key={s.id}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => navigate(`/dashboard/sale/detail/${s.id}`)}
              >
                <TableCell>
                  <RouterLink to={`/dashboard/sale/detail/${s.id}`} onClick={(e) => e.stopPropagation()}>
                    {s.number}
                  </RouterLink>
                </TableCell>
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
