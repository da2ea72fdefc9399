import { labelItemsOfEntry, labelItemsText } from '@balcao/core/labels/printerLabels';
import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import { can, WRITE } from '@balcao/core/routes';
import { stockEntryFormSchema, stockEntryFormToInput } from '@balcao/core/stock';
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod';
import { Form, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { shopToday } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { type BillChoice, PurchaseBillFields, usePurchase } from '../payable/index.ts';
import { useLowStock, useRegisterEntry } from './api.ts';
import { StockPage, useStockPage } from './components/common.tsx';
import {
  MovementItems,
  type MovementRow,
  missingVariants,
  rowsInput,
  rowTotals,
  useMovementRows,
} from './components/MovementRows.tsx';

type Values = { items: MovementRow[]; document: string; note: string };
const EMPTY: Values = { items: [], document: '', note: '' };
const NO_BILL: BillChoice = { on: false, supplierId: '', dueDate: '', installments: '1' };

/**
 * Entrada de estoque (/dashboard/stock-movement/entry): several products per entry, added by
 * barcode scan or name search, each with quantity and unit cost (pre-filled with the current
 * average cost); document number and note; the products at or below their minimum (one click adds
 * them) and the movement history below.
 */
export default function StockEntryPage() {
  const page = useStockPage();
  const { clientId, canWrite, show } = page;
  const entry = useRegisterEntry();
  const purchase = usePurchase();
  const { user } = useSession();
  // Issue 34: who writes the finance too can turn the entry into the supplier's bill in the same step.
  const billsToo = canWrite && can(user?.userType.id, WRITE.finance);
  const [bill, setBill] = useState<BillChoice>(NO_BILL);
  const form = useAppForm({
    schema: stockEntryFormSchema,
    defaultValues: EMPTY,
    toInput: (values: Values) => ({
      items: rowsInput(values.items, true),
      document: values.document,
      note: values.note,
    }),
    // The API names the cost in cents.
    fieldOf: (path) => path.replace(/^(items\.\d+\.)unitCostCents$/, '$1unitCost'),
    check: (values) => missingVariants(values.items),
  });
  const movement = useMovementRows(form, show);
  const { errors } = form.formState;

  // The entry just registered, as labels to print (what just arrived goes to the shelf).
  const [arrived, setArrived] = useState<{ items: string; count: number } | null>(null);

  const submit = async (values: z.output<typeof stockEntryFormSchema>) => {
    if (billsToo && bill.on) {
      const saved = await purchase.mutateAsync({
        body: {
          entry: stockEntryFormToInput(values),
          bill: {
            supplierId: Number(bill.supplierId) || 0,
            dueDate: bill.dueDate,
            installments: Number(bill.installments) || 1,
          },
        },
      });
      const count = saved.items.length;
      show({
        severity: 'success',
        title: 'Entrada registrada com sucesso',
        message: `${saved.movements} ${saved.movements === 1 ? 'produto' : 'produtos'} no estoque e ${count} ${count === 1 ? 'conta a pagar criada' : 'contas a pagar criadas'}`,
      });
      form.reset(EMPTY);
      setBill(NO_BILL);
      return;
    }
    const { movements } = await entry.mutateAsync({ body: stockEntryFormToInput(values) });
    const labels = labelItemsOfEntry(
      movements.map((m) => ({
        productId: m.product.id,
        variantId: m.variant?.id ?? null,
        quantity: m.quantity,
      })),
    );
    setArrived(
      labels.length > 0
        ? { items: labelItemsText(labels), count: labels.reduce((sum, l) => sum + l.copies, 0) }
        : null,
    );
    show({
      severity: 'success',
      title: 'Entrada registrada com sucesso',
      message: `${movements.length} ${movements.length === 1 ? 'produto' : 'produtos'} no estoque`,
    });
    form.reset(EMPTY);
  };

  const totals = rowTotals(movement.rows);
  return (
    <StockPage page={page} title="Entrada de estoque" historyType="entry">
      {arrived && (
        <Alert
          severity="info"
          onClose={() => setArrived(null)}
          action={
            <Button
              color="inherit"
              size="small"
              component={RouterLink}
              to={`/dashboard/product-label?items=${arrived.items}`}
            >
              Imprimir etiquetas
            </Button>
          }
        >
          Etiquetas da entrada registrada: {arrived.count} {arrived.count === 1 ? 'etiqueta' : 'etiquetas'}
        </Alert>
      )}
      <Form
        form={form}
        onSubmit={submit}
        onError={(message) => show({ severity: 'error', title: 'Erro ao registrar entrada', message })}
        aria-label="Nova entrada"
      >
        <Paper sx={{ p: { xs: 2, sm: 3 } }}>
          <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
            Nova entrada
          </Typography>
          <MovementItems
            clientId={clientId}
            canWrite={canWrite}
            searchLabel="Buscar produto"
            withCost
            movement={movement}
            errors={errors.items}
            submitting={form.formState.isSubmitting}
            show={show}
          />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 2fr' }, mt: 3 }}>
            <FormTextField
              control={form.control}
              name="document"
              label="Nota fiscal / documento"
              disabled={!canWrite}
              slotProps={{ htmlInput: { maxLength: 60 } }}
            />
            <FormTextField
              control={form.control}
              name="note"
              label="Observação"
              disabled={!canWrite}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          </Box>
          {billsToo && (
            <PurchaseBillFields
              value={bill}
              onChange={(next) =>
                setBill(next.on && !next.dueDate ? { ...next, dueDate: shopToday() } : next)
              }
            />
          )}
          <Box
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              gap: 2,
              alignItems: 'center',
              justifyContent: 'space-between',
              mt: 3,
            }}
          >
            <Typography aria-live="polite" data-testid="entry-totals">
              {totals.count} {totals.count === 1 ? 'produto' : 'produtos'} · Total:{' '}
              {formatCents(totals.cents)}
            </Typography>
            <SubmitButton busyLabel="Registrando..." disabled={!canWrite}>
              Registrar entrada
            </SubmitButton>
          </Box>
        </Paper>
      </Form>
      <LowStockSection clientId={clientId} canWrite={canWrite} onAdd={movement.addById} />
    </StockPage>
  );
}

const LOW_PAGE_SIZES = [10, 20, 50, 100];
const lowQuery = (params: URLSearchParams) => ({
  page: readParam.page(params),
  pageSize: readParam.pageSize(params, LOW_PAGE_SIZES),
});

/** Products at or below their minimum: what to buy next. Its page is in the URL as low-page / low-pageSize. */
function LowStockSection({
  clientId,
  canWrite,
  onAdd,
}: {
  clientId: number | undefined;
  canWrite: boolean;
  onAdd: (productId: number) => void;
}) {
  const { query, pagination } = useListParams(lowQuery, 'low-');
  const low = useLowStock(clientId, query.page, query.pageSize);
  let body: ReactNode;
  if (low.isPending) body = <Loading />;
  else if (low.isError) body = <Alert severity="error">{errorMessage(low.error)}</Alert>;
  else if (low.data.items.length === 0)
    body = (
      <Typography color="text.secondary" sx={{ py: 2 }}>
        Nenhum produto com estoque baixo
      </Typography>
    );
  else
    body = (
      <ListTable
        label="Produtos com estoque baixo"
        head={
          <>
            <TableCell>Produto</TableCell>
            <TableCell align="right">Estoque</TableCell>
            <TableCell align="right">Mínimo</TableCell>
            {canWrite && <TableCell />}
          </>
        }
        pagination={
          low.data.total > 10 ? pagination({ ...query, total: low.data.total }, LOW_PAGE_SIZES) : undefined
        }
      >
        {low.data.items.map((p) => (
          <TableRow key={p.id}>
            <TableCell>{p.name}</TableCell>
            <TableCell align="right" sx={{ color: p.stock <= 0 ? 'error.main' : 'warning.main' }}>
              {formatQuantity(p.stock, p.unit)}
            </TableCell>
            <TableCell align="right">{formatQuantity(p.minStock, p.unit)}</TableCell>
            {canWrite && (
              <TableCell align="right">
                <Button size="small" startIcon={<AddShoppingCartIcon />} onClick={() => onAdd(p.id)}>
                  Adicionar à entrada
                </Button>
              </TableCell>
            )}
          </TableRow>
        ))}
      </ListTable>
    );
  return (
    <Paper component="section" aria-label="Produtos com estoque baixo" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Produtos com estoque baixo
      </Typography>
      {body}
    </Paper>
  );
}
