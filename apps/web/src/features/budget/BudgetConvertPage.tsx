import type { Budget } from '@balcao/core/budget';
import { CASH_REGISTER_MESSAGES } from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import type { Sale } from '@balcao/core/sale';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMemo, useReducer, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useIdFromPath } from '../../lib/useIdFromPath.ts';
import { OpenRegisterDialog, useCurrentRegister } from '../cash-register/index.ts';
import {
  CheckoutGrid,
  DiscountApprovalDialog,
  emptyPdv,
  GrandTotal,
  PaymentStep,
  type PdvLine,
  type PdvState,
  pdvPaymentCheck,
  pdvReducer,
  pdvTotals,
  TotalLine,
  TotalsPanel,
} from '../checkout/index.ts';
import { useBudget, useConvertBudget } from './api.ts';

type Prices = 'budget' | 'current';

/** The budget's lines as the PDV's cart, at the budget's prices or today's. */
function linesOf(budget: Budget, prices: Prices): PdvLine[] {
  return budget.items.map((i) => ({
    key: String(i.id),
    productId: i.productId ?? 0,
    variantId: i.variantId,
    name: i.description,
    variantName: i.variantName,
    sku: i.sku,
    barcode: i.barcode,
    unit: i.unit,
    fractional: !Number.isInteger(i.quantity),
    quantity: i.quantity,
    unitPriceCents:
      prices === 'current' && i.currentUnitPriceCents !== null ? i.currentUnitPriceCents : i.unitPriceCents,
    additionals: i.additionals,
    discountType: i.discountType,
    discountValue: i.discountValue,
  }));
}

/** /dashboard/budget/convert/{id}: the budget's lines in the PDV's payment step, then one sale (origin budget). */
export default function BudgetConvertPage() {
  const id = useIdFromPath('/dashboard/budget/convert');
  const found = id !== undefined && !Number.isNaN(id);
  const budget = useBudget(found ? id : undefined);
  const register = useCurrentRegister();

  if (!found) return <Alert severity="error">Orçamento não encontrado</Alert>;
  if (budget.isPending || register.isPending) return <Loading text={CASH_REGISTER_MESSAGES.loading} />;
  if (budget.isError) return <Alert severity="error">{errorMessage(budget.error)}</Alert>;
  if (register.isError) return <Alert severity="error">{errorMessage(register.error)}</Alert>;
  return (
    <>
      <OpenRegisterDialog open={!register.data} />
      <Convert budget={budget.data} />
    </>
  );
}

function Convert({ budget }: { budget: Budget }) {
  const convert = useConvertBudget();
  const changed = budget.items.some(
    (i) => i.currentUnitPriceCents !== null && i.currentUnitPriceCents !== i.unitPriceCents,
  );
  const [prices, setPrices] = useState<Prices>('budget');
  const [base, dispatch] = useReducer(pdvReducer, undefined, () => ({
    ...emptyPdv(),
    step: 2 as const,
    customer: budget.customer,
    typeOfSale: budget.typeOfSale,
    freightCents: budget.freightCents,
    discountType: budget.discountType,
    discountValue: budget.discountValue,
    // Issue 33: the Pix the customer paid on the link is this sale's, already confirmed by the bank.
    payments: budget.pixPayment
      ? [
          {
            key: 'budget-pix',
            method: 'pixQrCode' as const,
            amountCents: budget.pixPayment.amountCents,
            numberInstallments: 1,
            dueDate: null,
            pixPaid: true,
            pixPaidNote: `Pago por Pix no link do orçamento (${budget.pixPayment.endToEndId})`,
          },
        ]
      : [],
  }));
  const state: PdvState = useMemo(
    () => ({ ...base, items: linesOf(budget, prices) }),
    [base, budget, prices],
  );
  const totals = useMemo(() => pdvTotals(state), [state]);
  const [finishing, setFinishing] = useState(false);
  const [finishError, setFinishError] = useState<string | null>(null);
  const [approvalAsked, setApprovalAsked] = useState<string | null>(null);
  const [sale, setSale] = useState<Sale | null>(null);
  const open = (budget.status === 'pending' || budget.status === 'sent') && !budget.expired;

  const body = () => ({
    prices,
    payments: state.payments.map((p) => ({
      method: p.method,
      amountCents: p.amountCents,
      numberInstallments: p.numberInstallments,
      dueDate: p.dueDate,
    })),
    cashDepositAmountCents: state.cashDepositAmountCents,
  });
  const done = (recorded: Sale) => {
    setSale(recorded);
  };
  const finish = async () => {
    if (finishing || !pdvPaymentCheck(state, totals.finalAmountCents).ok) return;
    setFinishing(true);
    setFinishError(null);
    try {
      done(
        await convert.mutateAsync({
          params: { id: budget.id },
          body: body(),
          idempotencyKey: state.idempotencyKey,
        }),
      );
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.code === 'forbidden' &&
        error.issues.some((i) => i.path === 'approval')
      ) {
        setApprovalAsked(error.message);
        return;
      }
      setFinishError(errorMessage(error));
    } finally {
      setFinishing(false);
    }
  };

  if (sale)
    return (
      <Stack spacing={2}>
        <Alert severity="success">
          Orçamento nº {budget.number} convertido: venda nº {sale.number} finalizada
          {sale.changeCents > 0 ? ` · troco ${formatCents(sale.changeCents)}` : ''}
        </Alert>
        <Stack direction="row" spacing={1}>
          <Button variant="contained" component={RouterLink} to={`/dashboard/sale/detail/${sale.id}`}>
            Ver venda
          </Button>
          <Button component={RouterLink} to={`/dashboard/budget/detail/${budget.id}`}>
            Ver orçamento
          </Button>
        </Stack>
      </Stack>
    );

  return (
    <Box>
      <DiscountApprovalDialog
        message={approvalAsked}
        onApprove={async (approval) => {
          done(
            await convert.mutateAsync({
              params: { id: budget.id },
              body: { ...body(), approval },
              idempotencyKey: state.idempotencyKey,
            }),
          );
          setApprovalAsked(null);
        }}
        onClose={() => setApprovalAsked(null)}
      />
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}
      >
        <Typography component="h1" variant="h5">
          Converter orçamento nº {budget.number}
        </Typography>
        <Button component={RouterLink} to={`/dashboard/budget/detail/${budget.id}`}>
          Voltar
        </Button>
      </Stack>
      {!open ? (
        <Alert severity="warning">
          {budget.expired
            ? 'Este orçamento está vencido: renove a validade antes'
            : 'Este orçamento já foi convertido em venda ou cancelado'}
        </Alert>
      ) : (
        <CheckoutGrid>
          <Stack spacing={3}>
            <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
              <ListTable
                label="Itens"
                head={[
                  'Produto',
                  alignRight('Qtd'),
                  alignRight('Preço do orçamento'),
                  alignRight('Preço de hoje'),
                ]}
              >
                {budget.items.map((i) => (
                  <TableRow key={i.id}>
                    <TableCell>
                      {i.description}
                      {i.variantName ? ` (${i.variantName})` : ''}
                    </TableCell>
                    <TableCell align="right">{formatQuantity(i.quantity, i.unit)}</TableCell>
                    <TableCell align="right">{formatCents(i.unitPriceCents)}</TableCell>
                    <TableCell
                      align="right"
                      sx={{
                        color:
                          i.currentUnitPriceCents !== null && i.currentUnitPriceCents !== i.unitPriceCents
                            ? 'warning.main'
                            : undefined,
                      }}
                    >
                      {i.currentUnitPriceCents === null
                        ? 'indisponível'
                        : formatCents(i.currentUnitPriceCents)}
                    </TableCell>
                  </TableRow>
                ))}
              </ListTable>
            </Paper>
            {changed && (
              <Paper variant="outlined" sx={{ p: 2 }}>
                <Typography variant="subtitle1" gutterBottom>
                  Os preços mudaram desde o orçamento
                </Typography>
                <RadioGroup value={prices} onChange={(e) => setPrices(e.target.value as Prices)}>
                  <FormControlLabel
                    value="budget"
                    control={<Radio />}
                    label="Manter os preços do orçamento"
                  />
                  <FormControlLabel
                    value="current"
                    control={<Radio />}
                    label="Atualizar para os preços de hoje"
                  />
                </RadioGroup>
              </Paper>
            )}
            <PaymentStep
              state={state}
              totals={totals}
              dispatch={dispatch}
              onFinish={finish}
              finishing={finishing}
              finishError={finishError}
              discount={false}
            />
          </Stack>
          <TotalsPanel>
            <Typography color="text.secondary">Cliente: {budget.customer?.name ?? '—'}</Typography>
            <TotalLine label="Subtotal" value={formatCents(totals.itemsGrossCents)} />
            {totals.itemsDiscountCents + totals.discountCents > 0 && (
              <TotalLine
                label="Descontos"
                value={`- ${formatCents(totals.itemsDiscountCents + totals.discountCents)}`}
              />
            )}
            {totals.freightCents > 0 && <TotalLine label="Frete" value={formatCents(totals.freightCents)} />}
            <Divider />
            <GrandTotal cents={totals.finalAmountCents} testId="convert-final-amount" />
          </TotalsPanel>
        </CheckoutGrid>
      )}
    </Box>
  );
}
