import type { BudgetInput } from '@balcao/core/budget';
import { formatCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { errorMessage } from '../../lib/api.ts';
import { loadPersisted, removePersisted, savePersisted } from '../../lib/persist.ts';
import { useSession } from '../auth/index.ts';
import {
  CheckoutGrid,
  CheckoutStepper,
  CustomerStep,
  DiscountAndCoupon,
  FreightLine,
  GrandTotal,
  ItemsStep,
  type PdvState,
  TotalLine,
  TotalsPanel,
  useDeliveryFreight,
  usePdvState,
} from '../checkout/index.ts';
import { useCreateBudget } from './api.ts';

const STEPS = ['Itens', 'Cliente e entrega', 'Condições'] as const;

type Extras = { validUntil: string; notes: string; paymentConditions: string; reserveStock: boolean };
const NO_EXTRAS: Extras = { validUntil: '', notes: '', paymentConditions: '', reserveStock: false };

/** The POST /v1/budget body: the PDV's cart (prices come from the catalog on the server) and the budget's texts. */
export function budgetInputOf(state: PdvState, extras: Extras): BudgetInput {
  return {
    items: state.items.map((l) => ({
      productId: l.productId,
      variantId: l.variantId,
      quantity: l.quantity,
      additionals: l.additionals.map((a) => ({ id: a.id, quantity: a.quantity })),
      discountType: l.discountType,
      discountValue: l.discountValue,
      notes: l.notes?.trim() || null,
    })),
    customerId: state.customer?.id ?? null,
    sellerId: state.sellerId,
    typeOfSale: state.typeOfSale,
    deliveryAddressId: state.typeOfSale === 'delivery' ? state.deliveryAddressId : null,
    freightCents: state.typeOfSale === 'delivery' ? state.freightCents : 0,
    discountType: state.discountType,
    discountValue: state.discountValue,
    validUntil: extras.validUntil || null,
    notes: extras.notes.trim() || null,
    paymentConditions: extras.paymentConditions.trim() || null,
    reserveStock: extras.reserveStock,
  };
}

/**
 * /dashboard/budget/pdv: the PDV's item and customer steps in budget mode (their own cart, kept per
 * user), then the budget's conditions. Saving needs no register and moves no stock or money.
 */
export default function BudgetPdvPage() {
  const session = useSession();
  const user = session.user;
  const navigate = useNavigate();
  const { state, dispatch, totals } = usePdvState(user?.id, 'budget');
  // Re-quoted whenever the order's value changes (a discount on the conditions step, issue 30).
  const freight = useDeliveryFreight(state, dispatch);
  const extrasKey = `budget-extras:${user?.id ?? 0}`;
  const [extras, setExtrasState] = useState<Extras>(() => loadPersisted(extrasKey, NO_EXTRAS));
  const setExtras = (changes: Partial<Extras>) =>
    setExtrasState((e) => {
      const next = { ...e, ...changes };
      savePersisted(extrasKey, next);
      return next;
    });
  const searchRef = useRef<HTMLInputElement | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const create = useCreateBudget();
  const stockManagement = Boolean(session.settingsChecklist?.stockManagement);
  const mayWrite = can(user?.userType.id, WRITE.budgets);

  if (!user) return null;
  const step = Math.min(state.step, 2) as 0 | 1 | 2;
  const goTo = (next: 0 | 1 | 2) => dispatch({ type: 'step', step: next });
  const clear = () => {
    dispatch({ type: 'cancel' });
    removePersisted(extrasKey);
    setExtrasState(NO_EXTRAS);
  };

  const save = async () => {
    setError(null);
    try {
      const budget = await create.mutateAsync({ body: budgetInputOf(state, extras) });
      clear();
      navigate(`/dashboard/budget/detail/${budget.id}`, {
        state: { message: `Orçamento nº ${budget.number} salvo` },
      });
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Box>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}
      >
        <Typography component="h1" variant="h5">
          Novo orçamento
        </Typography>
      </Stack>
      {!mayWrite && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Você pode montar o orçamento, mas não salvá-lo.
        </Alert>
      )}
      <CheckoutStepper steps={STEPS} active={step} onStep={(index) => goTo(index as 0 | 1 | 2)} />

      <CheckoutGrid>
        <Box>
          {step === 0 && (
            <ItemsStep
              clientId={user.client.id}
              items={state.items}
              dispatch={dispatch}
              searchRef={searchRef}
              lineNotes
              emptyText="Nenhum item no orçamento. Busque um produto para começar."
            />
          )}
          {step === 1 && (
            <CustomerStep
              clientId={user.client.id}
              state={state}
              dispatch={dispatch}
              freightQuote={freight}
            />
          )}
          {step === 2 && (
            <Stack spacing={3}>
              <DiscountAndCoupon state={state} totals={totals} dispatch={dispatch} coupon={false} />
              <Box>
                <Typography component="h2" variant="h6" gutterBottom>
                  Validade e condições
                </Typography>
                <Stack spacing={2}>
                  <TextField
                    type="date"
                    label="Válido até"
                    value={extras.validUntil}
                    onChange={(e) => setExtras({ validUntil: e.target.value })}
                    helperText="Em branco: a validade padrão do sistema"
                    slotProps={{ inputLabel: { shrink: true } }}
                    sx={{ maxWidth: 260 }}
                  />
                  <TextField
                    label="Condições de pagamento"
                    value={extras.paymentConditions}
                    onChange={(e) => setExtras({ paymentConditions: e.target.value })}
                    multiline
                    minRows={2}
                    slotProps={{ htmlInput: { maxLength: 1000 } }}
                  />
                  <TextField
                    label="Observações"
                    value={extras.notes}
                    onChange={(e) => setExtras({ notes: e.target.value })}
                    multiline
                    minRows={2}
                    slotProps={{ htmlInput: { maxLength: 1000 } }}
                  />
                  {stockManagement && (
                    <FormControlLabel
                      control={
                        <Checkbox
                          checked={extras.reserveStock}
                          onChange={(e) => setExtras({ reserveStock: e.target.checked })}
                        />
                      }
                      label="Reservar o estoque dos itens enquanto o orçamento for válido"
                    />
                  )}
                </Stack>
              </Box>
              {error && <Alert severity="error">{error}</Alert>}
            </Stack>
          )}
        </Box>

        <TotalsPanel sticky>
          <TotalLine label="Itens" value={String(totals.totalItems)} />
          <TotalLine label="Subtotal" value={formatCents(totals.itemsGrossCents)} />
          {totals.itemsDiscountCents + totals.discountCents > 0 && (
            <TotalLine
              label="Descontos"
              value={`- ${formatCents(totals.itemsDiscountCents + totals.discountCents)}`}
            />
          )}
          {state.typeOfSale === 'delivery' ? (
            <FreightLine cents={totals.freightCents} freight={freight} />
          ) : (
            totals.freightCents > 0 && <TotalLine label="Frete" value={formatCents(totals.freightCents)} />
          )}
          <Divider />
          <GrandTotal cents={totals.finalAmountCents} testId="budget-final-amount" />
          {state.customer && (
            <Typography variant="body2" color="text.secondary">
              Cliente: {state.customer.name}
            </Typography>
          )}
          <Stack direction="row" spacing={1} sx={{ pt: 1 }}>
            {step < 2 ? (
              <Button
                variant="contained"
                fullWidth
                disabled={state.items.length === 0}
                onClick={() => goTo((step + 1) as 1 | 2)}
              >
                Avançar
              </Button>
            ) : (
              <Button
                variant="contained"
                fullWidth
                disabled={state.items.length === 0 || create.isPending || !mayWrite}
                onClick={save}
              >
                Salvar orçamento
              </Button>
            )}
            <Button color="error" disabled={state.items.length === 0} onClick={() => setConfirmClear(true)}>
              Limpar
            </Button>
          </Stack>
        </TotalsPanel>
      </CheckoutGrid>
      <ConfirmDialog
        open={confirmClear}
        title="Limpar orçamento"
        message="Deseja limpar este orçamento? Os itens serão removidos."
        confirmLabel="Limpar"
        cancelLabel="Voltar"
        destructive
        onConfirm={() => {
          setConfirmClear(false);
          clear();
        }}
        onCancel={() => setConfirmClear(false)}
      />
    </Box>
  );
}
