import { payableApi } from '@balcao/core/endpoints/payable';
import { formatCents } from '@balcao/core/money';
import {
  PAYABLE_LIST_STATUSES,
  PAYABLE_STATUS_LABELS,
  type Payable,
  type PayableListQuery,
} from '@balcao/core/payable';
import { can, WRITE } from '@balcao/core/routes';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  alignRight,
  ExportButton,
  ListFilters,
  ListHeader,
  ListQuery,
  ListTable,
  recordOptions,
  SearchField,
  SelectFilter,
  useHandedOverMessage,
} from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { download } from '../../lib/client.ts';
import { formatDate } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { usePayableCategories, usePayables, useSuppliers } from './api.ts';
import { NfeImportButton } from './NfeImportButton.tsx';
import { PayDialog } from './PayDialog.tsx';

const STATUS_OPTIONS = [
  { value: 'open', label: 'Em aberto' },
  { value: 'overdue', label: 'Vencidas' },
  { value: 'paid', label: 'Pagas' },
];

function queryFromParams(params: URLSearchParams) {
  return {
    page: readParam.page(params),
    pageSize: readParam.pageSize(params, [20, 50, 100]),
    q: readParam.text(params, 'q'),
    status: readParam.oneOf(params, 'status', PAYABLE_LIST_STATUSES),
    dateField: readParam.oneOf(params, 'dateField', ['due', 'paid'] as const),
    from: readParam.date(params, 'from'),
    to: readParam.date(params, 'to'),
    supplierId: readParam.id(params, 'supplierId'),
    categoryId: readParam.id(params, 'categoryId'),
  };
}

function StatusChip({ payable }: { payable: Payable }) {
  if (payable.overdue) return <Chip size="small" color="error" label={PAYABLE_STATUS_LABELS.overdue} />;
  const color = payable.status === 'paid' ? 'success' : payable.status === 'partial' ? 'warning' : 'default';
  return <Chip size="small" color={color} label={PAYABLE_STATUS_LABELS[payable.status]} />;
}

/** Contas a pagar (issue 34): filters, totals of everything matched, pay and edit per row, CSV and XLSX of it all. */
export default function PayableListPage() {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.finance);
  const { state, show, close } = useFeedback();
  useHandedOverMessage(show);
  const { query, update, pagination, search, setSearch } = useListParams(queryFromParams);
  const filters: Partial<PayableListQuery> = { ...query, status: query.status ?? 'all' };
  const payables = usePayables(filters);
  const suppliers = useSuppliers();
  const categories = usePayableCategories();
  const exportError = (error: unknown) =>
    show({ severity: 'error', title: 'Erro ao exportar contas', message: errorMessage(error) });
  const [paying, setPaying] = useState<Payable | null>(null);
  const totals = payables.data?.totals;

  return (
    <Box>
      <ListHeader
        title="Contas a pagar"
        add={canWrite ? { to: '/dashboard/payable/new', label: 'Nova conta a pagar' } : undefined}
      >
        <Button component={RouterLink} to="/dashboard/supplier" variant="outlined">
          Fornecedores
        </Button>
        {canWrite && <NfeImportButton onFeedback={show} />}
        <ExportButton
          variant="outlined"
          download={() =>
            download(payableApi.export, { query: { ...filters, page: 1 } }, 'contas-a-pagar.csv')
          }
          onError={exportError}
        />
        <ExportButton
          variant="outlined"
          format="XLSX"
          download={() =>
            download(payableApi.exportXlsx, { query: { ...filters, page: 1 } }, 'contas-a-pagar.xlsx')
          }
          onError={exportError}
        />
      </ListHeader>
      <ListFilters
        active={
          [query.status, query.from, query.to, query.supplierId, query.categoryId].filter(Boolean).length
        }
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2, flexWrap: 'wrap' }}>
          <SearchField
            value={search}
            onChange={setSearch}
            placeholder="Descrição, documento ou fornecedor"
            sx={{ flex: 1, minWidth: 220 }}
          />
          <SelectFilter
            label="Situação"
            size="small"
            allLabel="Todas"
            value={query.status}
            options={STATUS_OPTIONS}
            onChange={(status) => update({ status })}
            sx={{ minWidth: 160 }}
          />
          <SelectFilter
            label="Fornecedor"
            size="small"
            value={query.supplierId}
            options={recordOptions(suppliers.data?.items)}
            onChange={(supplierId) => update({ supplierId })}
            sx={{ minWidth: 180 }}
          />
          <SelectFilter
            label="Categoria"
            size="small"
            allLabel="Todas"
            value={query.categoryId}
            options={recordOptions(categories.data)}
            onChange={(categoryId) => update({ categoryId })}
            sx={{ minWidth: 180 }}
          />
          <SelectFilter
            label="Período por"
            size="small"
            allLabel="Vencimento"
            value={query.dateField === 'paid' ? 'paid' : undefined}
            options={[{ value: 'paid', label: 'Pagamento' }]}
            onChange={(dateField) => update({ dateField })}
            sx={{ minWidth: 150 }}
          />
          <TextField
            label="De"
            type="date"
            size="small"
            value={query.from ?? ''}
            onChange={(e) => update({ from: e.target.value || undefined })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Até"
            type="date"
            size="small"
            value={query.to ?? ''}
            onChange={(e) => update({ to: e.target.value || undefined })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
      </ListFilters>
      {totals && (
        <Stack direction="row" spacing={3} sx={{ mb: 2, flexWrap: 'wrap' }} aria-label="Totais">
          <Typography>
            Em aberto: <strong>{formatCents(totals.openCents)}</strong>
          </Typography>
          <Typography color="error">
            Vencido: <strong>{formatCents(totals.overdueCents)}</strong>
          </Typography>
          <Typography color="success.main">
            Pago: <strong>{formatCents(totals.paidCents)}</strong>
          </Typography>
        </Stack>
      )}
      <ListQuery
        query={payables}
        what="Não foi possível carregar as contas a pagar."
        empty={
          <Paper sx={{ p: 6, textAlign: 'center' }}>
            <Typography>Nenhuma conta a pagar encontrada</Typography>
          </Paper>
        }
      >
        {(data) => (
          <ListTable
            label="Contas a pagar"
            head={[
              'Vencimento',
              'Descrição',
              'Fornecedor',
              'Categoria',
              alignRight('Valor'),
              alignRight('Em aberto'),
              'Situação',
              'Pago por',
              '',
            ]}
            pagination={pagination(data, [20, 50, 100])}
          >
            {data.items.map((p) => (
              <TableRow key={p.id} hover>
                <TableCell>{formatDate(`${p.dueDate}T12:00:00Z`)}</TableCell>
                <TableCell>
                  {p.description}
                  {p.series ? ` (${p.series.index}/${p.series.count})` : ''}
                </TableCell>
                <TableCell>{p.supplier?.name ?? '—'}</TableCell>
                <TableCell>{p.category.name}</TableCell>
                <TableCell align="right">{formatCents(p.amountCents)}</TableCell>
                <TableCell align="right">{formatCents(p.openCents)}</TableCell>
                <TableCell>
                  <StatusChip payable={p} />
                </TableCell>
                <TableCell>{p.paidFrom ?? '—'}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {canWrite && p.status !== 'paid' && (
                    <Button size="small" onClick={() => setPaying(p)} aria-label={`Pagar ${p.description}`}>
                      Pagar
                    </Button>
                  )}
                  <Button
                    size="small"
                    component={RouterLink}
                    to={`/dashboard/payable/edit/${p.id}`}
                    aria-label={`Abrir ${p.description}`}
                  >
                    Abrir
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        )}
      </ListQuery>
      <PayDialog
        payable={paying}
        onClose={() => setPaying(null)}
        onPaid={(p) => show({ severity: 'success', title: `Pagamento de ${p.description} registrado` })}
      />
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
