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
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback } from 'react';
import { type FieldErrors, type UseFormReturn, useWatch } from 'react-hook-form';
import type { Feedback } from '../../../components/FeedbackSnackbar.tsx';
import { ListTable } from '../../../components/listPage.tsx';
import { MoneyField, QuantityField } from '../../../components/MoneyField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { fetchProduct } from '../../product/index.ts';
import { AddProductFields } from './AddProductFields.tsx';

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

type RowErrors = Record<number, Partial<Record<'variantId' | 'quantity' | 'unitCost', string>>>;

let nextKey = 1;

/** A form holding movement rows under `items` (entry and exit). */
type RowsForm = UseFormReturn<{ items: MovementRow[] }, unknown, unknown>;

/**
 * The rows of an entry or exit form, kept in the form's `items`: a product (and variant) per row, its
 * quantity and unit cost. After a submit, a change checks the rows again. `addById` fetches the
 * product first; a failure goes to `show`.
 */
export function useMovementRows<V extends { items: MovementRow[] }, Out>(
  form: UseFormReturn<V, unknown, Out>,
  show: (feedback: Feedback) => void,
) {
  const rowsForm = form as unknown as RowsForm;
  const rows = useWatch({ control: rowsForm.control, name: 'items' });
  const set = useCallback(
    (change: (list: MovementRow[]) => MovementRow[]) =>
      rowsForm.setValue('items', change(rowsForm.getValues('items')), {
        shouldDirty: true,
        shouldValidate: rowsForm.formState.isSubmitted,
      }),
    [rowsForm],
  );

  /** Adds a product; the same product and variant again adds 1 to its row (a second scan). */
  const add = useCallback(
    (product: Product, variant: ProductVariant | null = null) =>
      set((list) => {
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
      }),
    [set],
  );

  const update = useCallback(
    (key: number, changes: Partial<MovementRow>) =>
      set((list) => list.map((r) => (r.key === key ? { ...r, ...changes } : r))),
    [set],
  );
  const remove = useCallback((key: number) => set((list) => list.filter((r) => r.key !== key)), [set]);
  const addById = async (id: number) => {
    try {
      add(await fetchProduct(id));
    } catch (error) {
      show({ severity: 'error', title: 'Erro ao adicionar produto', message: errorMessage(error) });
    }
  };
  return { rows, add, addById, update, remove };
}

/**
 * The products of an entry or exit: added by barcode scan or name search, their rows (`withCost`: the
 * entry's unit cost), and the rows' own error. An unknown code goes to `show`.
 */
export function MovementItems({
  clientId,
  canWrite,
  searchLabel,
  withCost,
  movement: { rows, add, addById, update, remove },
  errors,
  submitting,
  show,
}: {
  clientId: number | undefined;
  canWrite: boolean;
  searchLabel: string;
  withCost: boolean;
  movement: ReturnType<typeof useMovementRows>;
  errors: FieldErrors<{ items: MovementRow[] }>['items'];
  submitting: boolean;
  show: (feedback: Feedback) => void;
}) {
  const message = rowsMessage(errors);
  return (
    <>
      <AddProductFields
        clientId={clientId}
        disabled={!canWrite}
        searchLabel={searchLabel}
        onScan={(match) => add(match.product, match.variant)}
        onPick={(id) => void addById(id)}
        onNotFound={(message) => show({ severity: 'error', title: 'Produto não encontrado', message })}
      />
      <MovementRowsTable
        rows={rows}
        errors={rowErrorsOf(errors)}
        withCost={withCost}
        disabled={!canWrite || submitting}
        onChange={update}
        onRemove={remove}
      />
      {message && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {message}
        </Alert>
      )}
    </>
  );
}

/** The rows as the schemas read them: product, variant and quantity, with the unit cost on an entry. */
export function rowsInput(rows: MovementRow[], withCost: boolean) {
  return rows.map((r) => ({
    productId: r.productId,
    variantId: r.variantId,
    quantity: r.quantity,
    ...(withCost ? { unitCost: r.unitCost } : {}),
  }));
}

/** A row with variants needs one chosen: a rule of the screen, which knows the product's variants. */
export function missingVariants(rows: MovementRow[]): { path: string; message: string }[] {
  return rows.flatMap((row, index) =>
    row.variants.length > 0 && row.variantId === null
      ? [{ path: `items.${index}.variantId`, message: 'Escolha a variação' }]
      : [],
  );
}

/** The row errors the form holds (items.N.quantity...), as the rows table shows them. */
function rowErrorsOf(errors: FieldErrors<{ items: MovementRow[] }>['items']): RowErrors {
  const out: RowErrors = {};
  if (!Array.isArray(errors)) return out;
  errors.forEach((row, index) => {
    if (!row) return;
    out[index] = {
      variantId: row.variantId?.message,
      quantity: row.quantity?.message,
      unitCost: row.unitCost?.message,
    };
  });
  return out;
}

/** The form-level message of the rows ("Adicione ao menos um produto"). */
function rowsMessage(errors: FieldErrors<{ items: MovementRow[] }>['items']): string | undefined {
  return errors?.message ?? errors?.root?.message;
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

function MovementRowsTable({
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
    <ListTable
      label="Produtos do lançamento"
      head={
        <>
          <TableCell>Produto</TableCell>
          <TableCell>Estoque atual</TableCell>
          <TableCell sx={{ minWidth: 140 }}>Quantidade</TableCell>
          {withCost && <TableCell sx={{ minWidth: 150 }}>Custo unitário</TableCell>}
          {withCost && <TableCell align="right">Subtotal</TableCell>}
          <TableCell padding="checkbox" />
        </>
      }
    >
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
    </ListTable>
  );
}
