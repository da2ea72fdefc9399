import { formatCents } from '@balcao/core/money';
import {
  centsToMoneyInput,
  formatQuantity,
  moneyInputToCents,
  type Product,
  type ProductVariant,
} from '@balcao/core/product';
import { toThousandths } from '@balcao/core/stock';
import DeleteIcon from '@mui/icons-material/Delete';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { MoneyField, QuantityField } from '../../../components/MoneyField.tsx';

export type MovementRow = {
  key: number;
  productId: number;
  name: string;
  unit: string;
  stock: number;
  variants: { id: number; name: string; stock: number }[];
  variantId: number | null;
  quantity: string;
  /** Money text ("12,34"): entries only. */
  unitCost: string;
};

export type RowErrors = Record<number, Partial<Record<'variantId' | 'quantity' | 'unitCost', string>>>;

let nextKey = 1;

/** The rows of an entry or exit form: a product (and variant) per row, its quantity and unit cost. */
export function useMovementRows() {
  const [rows, setRows] = useState<MovementRow[]>([]);

  /** Adds a product; the same product and variant again adds 1 to its row (a second scan). */
  const add = useCallback((product: Product, variant: ProductVariant | null = null) => {
    setRows((list) => {
      const same = list.find(
        (r) =>
          r.productId === product.id &&
          r.variantId === (variant?.id ?? null) &&
          (variant || r.variants.length === 0),
      );
      if (same) {
        const current = toThousandths(same.quantity || '0');
        const next = Number.isNaN(current)
          ? same.quantity
          : String((current + 1000) / 1000).replace('.', ',');
        return list.map((r) => (r.key === same.key ? { ...r, quantity: next } : r));
      }
      return [
        ...list,
        {
          key: nextKey++,
          productId: product.id,
          name: product.name,
          unit: product.unit,
          stock: product.stock,
          variants: product.variants.map((v) => ({ id: v.id, name: v.name, stock: v.stock })),
          variantId: variant?.id ?? null,
          quantity: '1',
          unitCost: centsToMoneyInput(product.costPriceCents),
        },
      ];
    });
  }, []);

  const update = useCallback((key: number, changes: Partial<MovementRow>) => {
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...changes } : r)));
  }, []);
  const remove = useCallback((key: number) => setRows((list) => list.filter((r) => r.key !== key)), []);
  const clear = useCallback(() => setRows([]), []);
  return { rows, add, update, remove, clear };
}

const lineTotalCents = (row: MovementRow): number | null => {
  const q = toThousandths(row.quantity || '');
  const cost = moneyInputToCents(row.unitCost);
  if (Number.isNaN(q) || cost === undefined || Number.isNaN(cost)) return null;
  return Math.round((q * cost) / 1000);
};

/** Totals of the rows: how many products, and the entry's value (quantity x unit cost). */
export function rowTotals(rows: MovementRow[]) {
  let cents = 0;
  for (const r of rows) cents += lineTotalCents(r) ?? 0;
  return { count: rows.length, cents };
}

export function MovementRowsTable({
  rows,
  errors,
  withCost,
  disabled,
  onChange,
  onRemove,
}: {
  rows: MovementRow[];
  errors: RowErrors;
  withCost: boolean;
  disabled?: boolean;
  onChange: (key: number, changes: Partial<MovementRow>) => void;
  onRemove: (key: number) => void;
}) {
  if (rows.length === 0)
    return (
      <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
        Nenhum produto adicionado. Escaneie um código de barras ou busque pelo nome.
      </Typography>
    );
  return (
    <TableContainer>
      <Table size="small" aria-label="Produtos do lançamento">
        <TableHead>
          <TableRow>
            <TableCell>Produto</TableCell>
            <TableCell>Estoque atual</TableCell>
            <TableCell sx={{ minWidth: 140 }}>Quantidade</TableCell>
            {withCost && <TableCell sx={{ minWidth: 150 }}>Custo unitário</TableCell>}
            {withCost && <TableCell align="right">Subtotal</TableCell>}
            <TableCell padding="checkbox" />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, index) => {
            const rowErrors = errors[index] ?? {};
            const variant = row.variants.find((v) => v.id === row.variantId);
            const stock = variant ? variant.stock : row.stock;
            const total = lineTotalCents(row);
            return (
              <TableRow key={row.key} data-testid="movement-row">
                <TableCell sx={{ minWidth: 200 }}>
                  <Typography variant="body2">{row.name}</Typography>
                  {row.variants.length > 0 && (
                    <TextField
                      select
                      size="small"
                      label="Variação"
                      value={row.variantId ?? ''}
                      onChange={(e) => onChange(row.key, { variantId: Number(e.target.value) })}
                      error={Boolean(rowErrors.variantId)}
                      helperText={rowErrors.variantId}
                      disabled={disabled}
                      sx={{ mt: 1, minWidth: 160 }}
                    >
                      {row.variants.map((v) => (
                        <MenuItem key={v.id} value={v.id}>
                          {v.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                </TableCell>
                <TableCell>{formatQuantity(stock, row.unit)}</TableCell>
                <TableCell>
                  <QuantityField
                    size="small"
                    label="Quantidade"
                    value={row.quantity}
                    onChange={(text) => onChange(row.key, { quantity: text })}
                    suffix={row.unit}
                    error={Boolean(rowErrors.quantity)}
                    helperText={rowErrors.quantity}
                    disabled={disabled}
                    slotProps={{ htmlInput: { 'aria-label': `Quantidade de ${row.name}` } }}
                  />
                </TableCell>
                {withCost && (
                  <TableCell>
                    <MoneyField
                      size="small"
                      label="Custo unitário"
                      value={row.unitCost}
                      onChange={(text) => onChange(row.key, { unitCost: text })}
                      error={Boolean(rowErrors.unitCost)}
                      helperText={rowErrors.unitCost}
                      disabled={disabled}
                      slotProps={{ htmlInput: { 'aria-label': `Custo unitário de ${row.name}` } }}
                    />
                  </TableCell>
                )}
                {withCost && <TableCell align="right">{total === null ? '—' : formatCents(total)}</TableCell>}
                <TableCell padding="checkbox">
                  <IconButton
                    aria-label={`Remover ${row.name}`}
                    onClick={() => onRemove(row.key)}
                    disabled={disabled}
                  >
                    <DeleteIcon />
                  </IconButton>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Maps the shared schema's issues ("items.2.quantity") and missing variants to row errors. */
export function rowErrorsOf(
  issues: { path: PropertyKey[]; message: string }[],
  rows: MovementRow[],
  costField = 'unitCost',
): RowErrors {
  const errors: RowErrors = {};
  for (const issue of issues) {
    const [root, index, field] = issue.path;
    if (root !== 'items' || typeof index !== 'number') continue;
    const name = field === costField ? 'unitCost' : field === 'quantity' ? 'quantity' : undefined;
    if (!name) continue;
    errors[index] = { ...errors[index], [name]: errors[index]?.[name] ?? issue.message };
  }
  rows.forEach((row, index) => {
    if (row.variants.length > 0 && row.variantId === null)
      errors[index] = { ...errors[index], variantId: 'Escolha a variação' };
  });
  return errors;
}
