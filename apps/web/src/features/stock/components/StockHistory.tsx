import { formatCents } from '@balcao/core/money';
import type { ProductListItem } from '@balcao/core/product';
import { STOCK_MOVEMENT_TYPE_LABELS } from '@balcao/core/stock';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Loading } from '../../../components/Loading.tsx';
import { alignRight, ListTable, recordOptions, SelectFilter } from '../../../components/listPage.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { readParam, useListParams } from '../../../lib/listParams.ts';
import { formatMovementTime, movementDetails, productQueries, SignedQuantity } from '../../product/index.ts';
import { downloadMovementsCsv, useMovements, useStaff } from '../api.ts';
import { ProductPicker } from './ProductPicker.tsx';

const HISTORY_TYPE_OPTIONS: { value: string; label: string }[] = [
  { value: '', label: 'Todos' },
  { value: 'entry', label: 'Entrada' },
  { value: 'exit', label: 'Saída' },
  { value: 'fractionate-out,fractionate-in', label: 'Fracionamento' },
  { value: 'sale', label: 'Venda' },
  { value: 'sale-cancel', label: 'Cancelamento de venda' },
  { value: 'adjustment', label: 'Ajuste' },
];

const PAGE_SIZES = [10, 20, 50, 100];

/** The history's state in the URL; without a type it starts with the page's own (`defaultType`). */
function parserFor(defaultType: string) {
  return (params: URLSearchParams) => {
    const type = params.get('type');
    return {
      productId: readParam.id(params, 'productId'),
      type: type !== null && HISTORY_TYPE_OPTIONS.some((o) => o.value === type) ? type : defaultType,
      from: readParam.date(params, 'from'),
      to: readParam.date(params, 'to'),
      userId: readParam.id(params, 'userId'),
      page: readParam.page(params),
      pageSize: readParam.pageSize(params, PAGE_SIZES),
    };
  };
}

/**
 * The movement history with filters (product, type, period, user), server-side pages and the CSV
 * of the filtered list. Shown below the form on each stock page, starting with that page's type.
 */
export function StockHistory({
  clientId,
  defaultType = '',
  title = 'Histórico de movimentações',
}: {
  clientId: number | undefined;
  defaultType?: string;
  title?: string;
}) {
  const parse = useMemo(() => parserFor(defaultType), [defaultType]);
  const { query, update, pagination } = useListParams(parse);
  const { page, pageSize, ...filters } = { ...query, type: query.type || undefined };
  // The picked product; a link or reload brings only its id, so then it is fetched for its name.
  const [picked, setPicked] = useState<ProductListItem | null>(null);
  const linked = useQuery({
    ...productQueries.detail(query.productId ?? 0),
    enabled: Boolean(query.productId) && picked?.id !== query.productId,
  });
  const product = query.productId ? (picked?.id === query.productId ? picked : (linked.data ?? null)) : null;
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  const list = useMovements(clientId, { ...filters, page, pageSize });
  const staff = useStaff(clientId);

  const exportCsv = async () => {
    if (!clientId) return;
    setExporting(true);
    setExportError(null);
    try {
      await downloadMovementsCsv(clientId, filters);
    } catch (error) {
      setExportError(errorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  const items = list.data?.items ?? [];
  return (
    <Paper component="section" aria-label={title} sx={{ p: { xs: 2, sm: 3 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2, gap: 2 }}>
        <Typography component="h2" variant="h6">
          {title}
        </Typography>
        <Button startIcon={<DownloadIcon />} onClick={exportCsv} disabled={exporting || !clientId}>
          Exportar CSV
        </Button>
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          mb: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '2fr 1fr 1fr 1fr 1fr' },
        }}
      >
        <ProductPicker
          clientId={clientId}
          label="Filtrar por produto"
          value={product}
          onChange={(picked) => {
            setPicked(picked);
            update({ productId: picked ? String(picked.id) : undefined });
          }}
          size="small"
        />
        <TextField
          select
          size="small"
          label="Tipo"
          value={query.type}
          onChange={(e) => update({ type: e.target.value })}
        >
          {HISTORY_TYPE_OPTIONS.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="date"
          label="De"
          value={query.from ?? ''}
          onChange={(e) => update({ from: e.target.value || undefined })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label="Até"
          value={query.to ?? ''}
          onChange={(e) => update({ to: e.target.value || undefined })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <SelectFilter
          size="small"
          label="Usuário"
          value={query.userId}
          options={recordOptions(staff.data)}
          onChange={(userId) => update({ userId })}
        />
      </Box>
      {exportError && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setExportError(null)}>
          {exportError}
        </Alert>
      )}
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <Alert severity="error">{errorMessage(list.error)}</Alert>
      ) : items.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          Nenhuma movimentação encontrada
        </Typography>
      ) : (
        <>
          {list.isFetching && <LinearProgress aria-label="Atualizando" />}
          <ListTable
            label="Movimentações de estoque"
            head={[
              'Data',
              'Tipo',
              'Produto',
              alignRight('Quantidade'),
              alignRight('Custo unitário'),
              'Motivo / documento',
              'Usuário',
            ]}
            pagination={pagination({ total: list.data.total, page, pageSize }, PAGE_SIZES)}
          >
            {items.map((m) => (
              <TableRow key={m.id} data-testid="movement-history-row">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMovementTime(m.createdAt)}</TableCell>
                <TableCell>
                  <Chip size="small" label={STOCK_MOVEMENT_TYPE_LABELS[m.type]} />
                </TableCell>
                <TableCell>
                  {m.product.name}
                  {m.variant ? ` (${m.variant.name})` : ''}
                </TableCell>
                <TableCell align="right">
                  <SignedQuantity value={m.quantity} unit={m.product.unit} />
                </TableCell>
                <TableCell align="right">
                  {m.unitCostCents === null ? '' : formatCents(m.unitCostCents)}
                </TableCell>
                <TableCell>{movementDetails(m)}</TableCell>
                <TableCell>{m.user?.name ?? 'Sistema'}</TableCell>
              </TableRow>
            ))}
          </ListTable>
        </>
      )}
    </Paper>
  );
}
