import { CASH_REGISTER_MESSAGES } from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import type { Sale } from '@balcao/core/sale';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/index.ts';
import { OpenRegisterDialog, useCurrentRegister } from '../cash-register/index.ts';
import {
  CheckoutGrid,
  CheckoutStepper,
  CustomerStep,
  FreightLine,
  GrandTotal,
  ItemsStep,
  PaymentStep,
  pdvPaymentCheck,
  pdvToSaleInput,
  TotalsPanel,
  useDeliveryFreight,
  usePdvState,
} from '../checkout/index.ts';
import { ClosedShopWarning } from '../settings/index.ts';
import { useDeliveryPanel, useTakePhoneOrder } from './api.ts';

const STEPS = ['Itens', 'Cliente e endereço', 'Pagamento'] as const;

/**
 * A phone order (/dashboard/sale/delivery/new): the PDV's own steps (items, customer and address,
 * payment) in delivery-only mode, kept in local storage apart from the PDV's sale. The sale is recorded
 * at once with origin "delivery" (POST /v1/delivery/orders) and the order lands on the panel.
 */
export default function PhoneOrderPage() {
  const { user } = useSession();
  const register = useCurrentRegister();
  const acceptOutsideHours = useDeliveryPanel({}).data?.acceptOutsideHours ?? false;
  const { state, dispatch, totals } = usePdvState(user?.id, 'delivery-phone');
  const freight = useDeliveryFreight(state, dispatch);
  const searchRef = useRef<HTMLInputElement | null>(null);
  const [finishing, setFinishing] = useState(false);
  const [finishError, setFinishError] = useState<string | null>(null);
  const [done, setDone] = useState<Sale | null>(null);
  const takePhoneOrder = useTakePhoneOrder();

  // A phone order is always delivered.
  useEffect(() => {
    if (state.typeOfSale !== 'delivery')
      dispatch({ type: 'delivery', typeOfSale: 'delivery', deliveryAddressId: null, freightCents: 0 });
  }, [state.typeOfSale, dispatch]);

  // A delivery goes somewhere: no payment step (and no order) without the customer's address.
  const hasAddress = Boolean(state.customer && state.deliveryAddressId);
  const canFinish =
    state.items.length > 0 &&
    hasAddress &&
    !freight.quoting &&
    pdvPaymentCheck(state, totals.finalAmountCents).ok;
  const finish = async () => {
    if (finishing || !canFinish) return;
    setFinishing(true);
    setFinishError(null);
    try {
      const sale = await takePhoneOrder.mutateAsync({
        body: pdvToSaleInput(state),
        idempotencyKey: state.idempotencyKey,
      });
      setDone(sale);
      dispatch({ type: 'newSale' });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'register_closed') void register.refetch();
      setFinishError(errorMessage(error));
    } finally {
      setFinishing(false);
    }
  };

  if (!user) return null;
  if (register.isPending) return <Loading text={CASH_REGISTER_MESSAGES.loading} />;
  const step = state.step === 3 ? 0 : state.step === 2 && !hasAddress ? 1 : state.step;

  return (
    <Box>
      <OpenRegisterDialog open={!register.data && !register.isError} />
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 1 }}>
        <Typography component="h1" variant="h5">
          Novo pedido de entrega
        </Typography>
        <Button component={RouterLink} to="/dashboard/sale/delivery">
          Voltar ao painel
        </Button>
      </Stack>
      {/* Outside the working hours (issue 30 item 17): refused, or taken with a warning. */}
      <ClosedShopWarning
        severity={acceptOutsideHours ? 'warning' : 'error'}
        note={
          acceptOutsideHours
            ? 'O pedido será aceito fora do horário de funcionamento.'
            : 'Pedidos de entrega só no horário de funcionamento.'
        }
      />
      {done && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setDone(null)}>
          Pedido nº {done.number} registrado ({formatCents(done.finalAmountCents)}): já está no painel.
        </Alert>
      )}
      <CheckoutStepper
        steps={STEPS}
        active={step}
        onStep={(index) => {
          if (index === 2 && !hasAddress) return;
          dispatch({ type: 'step', step: index as 0 | 1 | 2 });
        }}
      />
      <CheckoutGrid side={280}>
        <Box>
          {step === 0 && (
            <ItemsStep
              clientId={user.client.id}
              items={state.items}
              dispatch={dispatch}
              searchRef={searchRef}
            />
          )}
          {step === 1 && (
            <CustomerStep
              clientId={user.client.id}
              state={state}
              dispatch={dispatch}
              deliveryOnly
              freightQuote={freight}
            />
          )}
          {step === 2 && (
            <PaymentStep
              state={state}
              totals={totals}
              dispatch={dispatch}
              onFinish={finish}
              finishing={finishing}
              finishError={finishError}
            />
          )}
        </Box>
        <TotalsPanel spacing={1}>
          <FreightLine cents={totals.freightCents} freight={freight} />
          <GrandTotal cents={totals.finalAmountCents} testId="pdv-final-amount" />
          {state.customer && (
            <Typography variant="body2" color="text.secondary">
              Cliente: {state.customer.name}
            </Typography>
          )}
          {step < 2 ? (
            <>
              <Button
                variant="contained"
                disabled={state.items.length === 0 || (step === 1 && !hasAddress)}
                onClick={() => dispatch({ type: 'step', step: (step + 1) as 1 | 2 })}
              >
                Avançar
              </Button>
              {step === 1 && !hasAddress && (
                <Typography variant="body2" color="text.secondary" data-testid="phone-order-needs-address">
                  Escolha o cliente e o endereço de entrega para avançar.
                </Typography>
              )}
            </>
          ) : (
            <Button variant="contained" disabled={!canFinish || finishing} onClick={finish}>
              Registrar pedido
            </Button>
          )}
          <Button
            color="error"
            disabled={state.items.length === 0}
            onClick={() => dispatch({ type: 'cancel' })}
          >
            Limpar
          </Button>
        </TotalsPanel>
      </CheckoutGrid>
    </Box>
  );
}
