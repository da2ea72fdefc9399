import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import { STOCK_MOVEMENT_TYPE_LABELS, type StockMovement, stockReasonLabel } from '@balcao/core/stock';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Loading } from '../../../components/Loading.tsx';
import { alignRight, ListTable } from '../../../components/listPage.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { readParam, useListParams } from '../../../lib/listParams.ts';
import { useSession } from '../../auth/index.ts';
import { useReservationFigures, useStockCard } from '../api.ts';

/** A movement's time without the comma: "05/01/2026 09:05". */
export const formatMovementTime = (iso: string) => formatDateTime(iso).replace(',', '');

/** "+2 un" in green, "−1,5 kg" in red. */
export function SignedQuantity({ value, unit }: { value: number; unit: string }) {
  const text = `${value > 0 ? '+' : value < 0 ? '−' : ''}${formatQuantity(Math.abs(value), unit)}`;
  return (
    <Typography
      component="span"
      variant="body2"
      sx={{ fontWeight: 500, color: value < 0 ? 'error.main' : 'success.main', whiteSpace: 'nowrap' }}
    >
      {text}
    </Typography>
  );
}

/** Reason, document and note of a movement in one line. */
export function movementDetails(m: StockMovement): string {
  return [stockReasonLabel(m.reason), m.document, m.note, m.saleId ? `Venda #${m.saleId}` : null]
    .filter(Boolean)
    .join(' · ');
}

const PAGE_SIZES = [10, 20, 50, 100];
const cardQuery = (params: URLSearchParams) => ({
  page: readParam.page(params),
  pageSize: readParam.pageSize(params, PAGE_SIZES),
});

/**
 * A product's stock card (ficha de estoque) for the product edit page: every movement, newest
 * first, with the level right after it. Hidden when the client's stock control is off or the
 * product does not control stock.
 */
export function ProductStockCard({ productId, stockControl }: { productId: number; stockControl: boolean }) {
  const { settingsChecklist } = useSession();
  const enabled = Boolean(settingsChecklist?.stockManagement) && stockControl;
  const { query, pagination } = useListParams(cardQuery, 'card-');
  const card = useStockCard(productId, query.page, query.pageSize, enabled);
  const reserved = useReservationFigures(productId, enabled);
  if (!enabled) return null;

  let body: ReactNode;
  if (card.isPending) body = <Loading />;
  else if (card.isError) body = <Alert severity="error">{errorMessage(card.error)}</Alert>;
  else {
    const { product, items, total } = card.data;
    body = (
      <>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, mb: 2 }}>
          <Summary label="Estoque atual" value={formatQuantity(product.stock, product.unit)} />
          {reserved.data && reserved.data.reserved > 0 && (
            <>
              <Summary
                label="Reservado em orçamentos"
                value={formatQuantity(reserved.data.reserved, product.unit)}
              />
              <Summary
                label="Disponível para venda"
                value={formatQuantity(reserved.data.available, product.unit)}
              />
            </>
          )}
          <Summary label="Estoque mínimo" value={formatQuantity(product.minStock, product.unit)} />
          <Summary label="Custo médio" value={formatCents(product.costPriceCents)} />
          {product.isLowStock && <Chip color="warning" label="Estoque baixo" sx={{ alignSelf: 'center' }} />}
        </Box>
        {items.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
            Nenhuma movimentação encontrada
          </Typography>
        ) : (
          <ListTable
            label="Ficha de estoque"
            head={[
              'Data',
              'Tipo',
              alignRight('Quantidade'),
              alignRight('Saldo'),
              'Motivo / documento',
              'Usuário',
            ]}
            pagination={pagination({ ...query, total }, PAGE_SIZES)}
          >
            {items.map((line) => (
              <TableRow key={line.id} data-testid="stock-card-row">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatMovementTime(line.createdAt)}</TableCell>
                <TableCell>
                  {STOCK_MOVEMENT_TYPE_LABELS[line.type]}
                  {line.variant ? ` · ${line.variant.name}` : ''}
                </TableCell>
                <TableCell align="right">
                  <SignedQuantity value={line.quantity} unit={product.unit} />
                </TableCell>
                <TableCell align="right">{formatQuantity(line.balance, product.unit)}</TableCell>
                <TableCell>{movementDetails(line)}</TableCell>
                <TableCell>{line.user?.name ?? 'Sistema'}</TableCell>
              </TableRow>
            ))}
          </ListTable>
        )}
      </>
    );
  }

  return (
    <Paper component="section" aria-label="Ficha de estoque" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        Ficha de estoque
      </Typography>
      {body}
    </Paper>
  );
}

function Summary({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="subtitle1">{value}</Typography>
    </Box>
  );
}
