import { CASH_REGISTER_MESSAGES } from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import { formatQuantity } from '@balcao/core/product';
import { ACTION, can } from '@balcao/core/routes';
import { PAYMENT_METHOD_LABELS, type SaleTotals } from '@balcao/core/sale';
import { discountsOverLimit, percentText } from '@balcao/core/settings';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { loadPersisted, savePersisted } from '../../lib/persist.ts';
import { useSession } from '../auth/index.ts';
import {
  CashMovementDialog,
  OpenDrawerButton,
  OpenRegisterDialog,
  useCurrentRegister,
} from '../cash-register/index.ts';
import {
  CheckoutGrid,
  CheckoutStepper,
  CustomerStep,
  type DeliveryFreight,
  DiscountApprovalDialog,
  FreightLine,
  GrandTotal,
  ItemsStep,
  PaymentStep,
  pdvPaymentCheck,
  pdvToSaleInput,
  TotalLine,
  TotalsPanel,
  useDeliveryFreight,
  usePdvState,
} from '../checkout/index.ts';
import {
  enqueueMovement,
  expectedCash,
  OfflineSync,
  setUnreachable,
  useOffline,
  useOfflineStore,
  useWaitingMovements,
  useWaitingSales,
} from '../offline/index.ts';
import { Receipt, useCheckout } from '../sale/index.ts';
import { ClosedShopWarning, useMyDiscountLimit } from '../settings/index.ts';
import { finishOffline } from './offlineSale.ts';

const STEPS = ['Itens', 'Cliente e entrega', 'Pagamento', 'Concluído'] as const;

/** A device whose main pointer is a finger and that cannot hover: no physical keyboard to expect. */
const TOUCH = '@media (hover: none) and (pointer: coarse)';

const SHORTCUTS = [
  ['F2', 'Buscar produto'],
  ['F4', 'Cliente'],
  ['F6', 'Pagamento'],
  ['F9', 'Finalizar'],
  ['Esc', 'Cancelar venda'],
] as const;

/** The PDV (PRODUCT.md steps 0-3), keyboard first; the working state survives a reload. */
export default function PdvPage() {
  const session = useSession();
  const user = session.user;
  const register = useCurrentRegister();
  const { state, dispatch, totals } = usePdvState(user?.id);
  const freight = useDeliveryFreight(state, dispatch);
  const searchRef = useRef<HTMLInputElement | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [movement, setMovement] = useState<'deposit' | 'withdrawal' | null>(null);
  const [finishing, setFinishing] = useState(false);
  const [finishError, setFinishError] = useState<string | null>(null);
  /** The API's "discount above your limit" refusal, while a manager's approval is asked. */
  const [approvalAsked, setApprovalAsked] = useState<string | null>(null);
  const { mutateAsync: postSale } = useCheckout();
  const offline = useOffline();
  const store = useOfflineStore(user?.client.id, user?.id);
  const waitingSales = useWaitingSales(store?.db);
  const waitingMovements = useWaitingMovements(store?.db);
  /** What the local copy said of the stock an offline sale left (shown with the finished sale). */
  const [stockWarnings, setStockWarnings] = useState<string[]>([]);
  // The open register as last seen online: offline, the PDV goes on selling on it (issue 21).
  const registerKey = `pdv-register:${user?.id ?? 0}`;
  useEffect(() => {
    if (register.data !== undefined) savePersisted(registerKey, register.data);
  }, [register.data, registerKey]);

  const goTo = useCallback(
    (step: 0 | 1 | 2) => {
      if (state.step === 3) dispatch({ type: 'newSale' });
      dispatch({ type: 'step', step });
      if (step === 0) setTimeout(() => searchRef.current?.focus(), 0);
    },
    [state.step, dispatch],
  );

  // What the payment step's main button allows, the side panel's "Finalizar (F9)" and the F9 key allow
  // too: nothing paid (or not enough) does nothing instead of answering 422.
  // A freight being quoted again (the order's value changed) is waited for: never a stale freight.
  // A delivery names its customer and address (issue 30 item 4): the API refuses one without (400).
  const needsAddress =
    state.typeOfSale === 'delivery' && (!state.customer || state.deliveryAddressId === null);
  const canFinish =
    state.items.length > 0 &&
    !needsAddress &&
    !freight.quoting &&
    pdvPaymentCheck(state, totals.finalAmountCents).ok;
  const finish = useCallback(async () => {
    if (finishing || !canFinish) return;
    setFinishing(true);
    setFinishError(null);
    const offlineFinish = async () => {
      if (!store || !user) throw new ApiError(0, 'Este navegador não guarda vendas sem conexão.');
      const done = await finishOffline(store.db, store.catalog, state, user);
      setStockWarnings(done.stockWarnings);
      dispatch({ type: 'finished', sale: done.sale });
    };
    try {
      if (offline) {
        await offlineFinish();
        return;
      }
      // The same key for every retry of this attempt: a lost answer never makes a second sale.
      const sale = await postSale({ body: pdvToSaleInput(state), idempotencyKey: state.idempotencyKey });
      setStockWarnings([]);
      dispatch({ type: 'finished', sale });
    } catch (error) {
      // The server could not be reached, or answered 503 having written nothing (a full disk, issue 37):
      // the sale is kept here and sent when the server takes it (same key: had the request been
      // recorded, the sync answers that sale).
      if (error instanceof ApiError && (error.status === 0 || error.status === 503) && !offline && store) {
        setUnreachable(true);
        try {
          await offlineFinish();
          return;
        } catch (inner) {
          setFinishError(errorMessage(inner));
          return;
        }
      }
      // A discount above the operator's limit: ask a manager (the sale is sent again with it).
      if (
        error instanceof ApiError &&
        error.code === 'forbidden' &&
        error.issues.some((i) => i.path === 'approval')
      ) {
        setApprovalAsked(error.message);
        return;
      }
      // The register was closed elsewhere (another tab, a manager): ask for a new one.
      if (error instanceof ApiError && error.code === 'register_closed') void register.refetch();
      setFinishError(
        error instanceof ApiError && error.status === 0
          ? `${error.message} A venda não foi perdida: tente finalizar de novo.`
          : errorMessage(error),
      );
    } finally {
      setFinishing(false);
    }
  }, [finishing, canFinish, state, dispatch, postSale, register, offline, store, user]);

  /** The sale again with the manager's approval; a refused one throws into the dialog's fields. */
  const finishApproved = useCallback(
    async (approval: { email: string; password: string }) => {
      const sale = await postSale({
        body: { ...pdvToSaleInput(state), approval },
        idempotencyKey: state.idempotencyKey,
      });
      setApprovalAsked(null);
      dispatch({ type: 'finished', sale });
    },
    [state, dispatch, postSale],
  );

  // Once the register is open (the opening modal closed), the scanner's input goes to the search box.
  const registerOpen = Boolean(register.data);
  useEffect(() => {
    if (registerOpen && state.step === 0) setTimeout(() => searchRef.current?.focus(), 50);
  }, [registerOpen, state.step]);

  // Keyboard shortcuts (shown on screen).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A dialog open (options, opening the register, confirmations) keeps its own keys.
      if (document.querySelector('[role="dialog"]')) return;
      if (e.key === 'F2') {
        e.preventDefault();
        goTo(0);
      } else if (e.key === 'F4') {
        e.preventDefault();
        goTo(1);
      } else if (e.key === 'F6') {
        e.preventDefault();
        goTo(2);
      } else if (e.key === 'F9') {
        e.preventDefault();
        if (state.step === 2) void finish();
        else if (state.items.length > 0) goTo(2);
      } else if (e.key === 'Escape') {
        if (state.step === 3) {
          dispatch({ type: 'newSale' });
          setTimeout(() => searchRef.current?.focus(), 0);
        } else if (state.items.length > 0) setConfirmCancel(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [goTo, finish, state.step, state.items.length, dispatch]);

  if (!user) return null;
  const lastRegister = offline ? loadPersisted<typeof register.data | null>(registerKey, null) : null;
  if (register.isPending && !lastRegister) return <Loading text={CASH_REGISTER_MESSAGES.loading} />;
  if (register.isError && !lastRegister)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={() => register.refetch()}>
            Tentar novamente
          </Button>
        }
      >
        Não foi possível carregar o caixa. {errorMessage(register.error)}
      </Alert>
    );

  const cashRegister = register.data ?? lastRegister ?? null;
  const cash = cashRegister
    ? expectedCash(cashRegister.money.expectedCents, waitingSales, waitingMovements)
    : null;
  return (
    <Box>
      {store && <OfflineSync db={store.db} catalog={store.catalog} />}
      <OpenRegisterDialog open={!cashRegister && !offline} />
      <DiscountApprovalDialog
        message={approvalAsked}
        onApprove={finishApproved}
        onClose={() => setApprovalAsked(null)}
      />
      <ClosedShopWarning />
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2, flexWrap: 'wrap' }}
      >
        <Typography component="h1" variant="h5">
          PDV
        </Typography>
        {cashRegister && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Chip
              color={cash?.unsynced ? 'warning' : 'success'}
              variant="outlined"
              label={`Caixa aberto · dinheiro ${formatCents(cash?.cents ?? 0)}${
                cash?.unsynced ? ' (inclui vendas não enviadas)' : ''
              }`}
              title={
                cash?.unsynced
                  ? 'Último total visto com conexão, mais o dinheiro das vendas e movimentos ainda não enviados'
                  : undefined
              }
              data-testid="register-chip"
              sx={{ maxWidth: '100%', '& .MuiChip-label': { whiteSpace: 'normal' }, height: 'auto', py: 0.5 }}
            />
            <Button size="small" onClick={() => setMovement('deposit')}>
              Suprimento
            </Button>
            <Button size="small" onClick={() => setMovement('withdrawal')}>
              Sangria
            </Button>
            <OpenDrawerButton />
            <Button size="small" component={RouterLink} to="/dashboard/sale/pdv/close">
              Fechar caixa
            </Button>
          </Stack>
        )}
      </Stack>

      <CheckoutStepper
        steps={STEPS}
        active={state.step}
        onStep={(index) => goTo(index as 0 | 1 | 2)}
        lastIsDone
      />

      <CheckoutGrid>
        <Box>
          {state.step === 0 && (
            <ItemsStep
              catalog={store?.catalog}
              clientId={user.client.id}
              items={state.items}
              dispatch={dispatch}
              searchRef={searchRef}
              liveScale
            />
          )}
          {state.step === 1 && (
            <CustomerStep
              clientId={user.client.id}
              state={state}
              dispatch={dispatch}
              catalog={store?.catalog}
              freightQuote={freight}
            />
          )}
          {state.step === 2 && (
            <PaymentStep
              state={state}
              totals={totals}
              dispatch={dispatch}
              onFinish={finish}
              finishing={finishing}
              finishError={finishError}
              catalog={store?.catalog}
            />
          )}
          {state.step === 3 && state.lastSale && (
            <Stack spacing={2}>
              <Alert severity="success" data-testid="sale-finished">
                {state.lastSale.id === 0
                  ? 'Venda finalizada sem conexão: guardada neste aparelho e enviada quando a conexão voltar'
                  : `Venda nº ${state.lastSale.number} finalizada`}
                {state.lastSale.changeCents > 0 ? ` · troco ${formatCents(state.lastSale.changeCents)}` : ''}
              </Alert>
              {state.lastSale.warnings?.map((w) => (
                <Alert key={w.code} severity="warning">
                  {w.message}
                </Alert>
              ))}
              {state.lastSale.id === 0 &&
                stockWarnings.map((w) => (
                  <Alert key={w} severity="warning" data-testid="offline-stock-warning">
                    {w}
                  </Alert>
                ))}
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
                <Button
                  variant="contained"
                  autoFocus
                  onClick={() => {
                    dispatch({ type: 'newSale' });
                    setTimeout(() => searchRef.current?.focus(), 0);
                  }}
                >
                  Nova venda (Esc)
                </Button>
                {state.lastSale.customer?.phone && (
                  <Button
                    variant="outlined"
                    startIcon={<WhatsAppIcon />}
                    href={`https://wa.me/${state.lastSale.customer.phone}?text=${encodeURIComponent(
                      `Obrigado pela compra! Venda nº ${state.lastSale.number}: ${formatCents(state.lastSale.finalAmountCents)} (${state.lastSale.payments
                        .map((p) => PAYMENT_METHOD_LABELS[p.method])
                        .join(', ')}).`,
                    )}`}
                    target="_blank"
                    rel="noopener"
                  >
                    Enviar por WhatsApp
                  </Button>
                )}
                {state.lastSale.id !== 0 && (
                  <Button component={RouterLink} to={`/dashboard/sale/detail/${state.lastSale.id}`}>
                    Ver detalhes
                  </Button>
                )}
              </Stack>
              <Receipt sale={state.lastSale} />
            </Stack>
          )}
        </Box>
        <PdvTotals
          totals={totals}
          customerName={state.customer?.name ?? null}
          freight={state.typeOfSale === 'delivery' ? freight : null}
          step={state.step}
          onNext={() => (state.step < 2 ? goTo((state.step + 1) as 1 | 2) : finish())}
          onCancel={() => setConfirmCancel(true)}
          hasItems={state.items.length > 0}
          canFinish={canFinish && !finishing}
          needsAddress={needsAddress && state.items.length > 0}
        />
      </CheckoutGrid>

      <ConfirmDialog
        open={confirmCancel}
        title="Cancelar venda"
        message="Deseja cancelar esta venda? Os itens serão removidos."
        confirmLabel="Cancelar venda"
        cancelLabel="Voltar"
        destructive
        onConfirm={() => {
          setConfirmCancel(false);
          setFinishError(null);
          dispatch({ type: 'cancel' });
          setTimeout(() => searchRef.current?.focus(), 0);
        }}
        onCancel={() => setConfirmCancel(false)}
      />
      <CashMovementDialog
        type={movement}
        isManager={can(user.userType.id, ACTION.approve)}
        moneyExpectedCents={cash?.cents ?? 0}
        onClose={() => setMovement(null)}
        offlineSave={offline && store ? (input) => enqueueMovement(store.db, input) : undefined}
      />
    </Box>
  );
}

/** Tells the operator before finishing that the discount needs a manager's approval. */
function DiscountLimitNote({ totals }: { totals: SaleTotals }) {
  const limit = useMyDiscountLimit().data;
  if (!limit) return null;
  const over = discountsOverLimit(totals, limit);
  if (over.lines.length === 0 && !over.sale) return null;
  return (
    <Alert severity="warning" data-testid="discount-over-limit" sx={{ py: 0 }}>
      Desconto acima do seu limite ({percentText(over.lines.length > 0 ? limit.line : limit.sale)}
      {over.lines.length > 0 ? ' por item' : ' na venda'}): um gerente precisará aprovar.
    </Alert>
  );
}

function PdvTotals({
  totals,
  freight,
  customerName,
  step,
  onNext,
  onCancel,
  hasItems,
  canFinish,
  needsAddress,
}: {
  totals: SaleTotals;
  /** A delivery's freight quote: the freight line shows with its reason, free or not. */
  freight: DeliveryFreight | null;
  customerName: string | null;
  step: number;
  onNext: () => void;
  onCancel: () => void;
  hasItems: boolean;
  canFinish: boolean;
  /** A delivery without its customer or address: said here, the sale cannot finish. */
  needsAddress: boolean;
}) {
  return (
    <TotalsPanel sticky>
      <TotalLine label="Itens" value={String(totals.totalItems)} testId="pdv-total-items" />
      <TotalLine label="Quantidade" value={formatQuantity(totals.totalQuantity)} />
      <TotalLine label="Subtotal" value={formatCents(totals.itemsGrossCents)} />
      {totals.itemsDiscountCents + totals.discountCents > 0 && (
        <TotalLine
          label="Descontos"
          value={`- ${formatCents(totals.itemsDiscountCents + totals.discountCents)}`}
        />
      )}
      <DiscountLimitNote totals={totals} />
      {totals.couponDiscountCents > 0 && (
        <TotalLine label="Cupom" value={`- ${formatCents(totals.couponDiscountCents)}`} />
      )}
      {freight ? (
        <FreightLine cents={totals.freightCents} freight={freight} />
      ) : (
        totals.freightCents > 0 && <TotalLine label="Frete" value={formatCents(totals.freightCents)} />
      )}
      <Divider />
      <GrandTotal cents={totals.finalAmountCents} testId="pdv-final-amount" />
      {customerName && (
        <Typography variant="body2" color="text.secondary">
          Cliente: {customerName}
        </Typography>
      )}
      {step < 3 && (
        <Stack direction="row" spacing={1} sx={{ pt: 1 }}>
          <Button
            variant="contained"
            fullWidth
            onClick={onNext}
            disabled={!hasItems || (step === 2 && !canFinish)}
          >
            {step < 2 ? 'Avançar' : 'Finalizar (F9)'}
          </Button>
          <Button color="error" onClick={onCancel} disabled={!hasItems}>
            Cancelar
          </Button>
        </Stack>
      )}
      {step < 3 && needsAddress && (
        <Typography variant="body2" color="text.secondary" data-testid="pdv-needs-address">
          Escolha o cliente e o endereço de entrega para finalizar.
        </Typography>
      )}
      {/* The F-key legend is for a keyboard: a touch screen (phone, tablet) does not show it. */}
      <Divider sx={{ pt: 1, [TOUCH]: { display: 'none' } }} />
      <Box
        component="ul"
        aria-label="Atalhos de teclado"
        sx={{ listStyle: 'none', p: 0, m: 0, pt: 1, [TOUCH]: { display: 'none' } }}
      >
        {SHORTCUTS.map(([key, label]) => (
          <Box component="li" key={key} sx={{ display: 'flex', gap: 1, alignItems: 'center', py: 0.25 }}>
            <Box
              component="kbd"
              sx={{
                minWidth: 36,
                textAlign: 'center',
                px: 0.75,
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
                fontFamily: 'monospace',
                fontSize: 12,
              }}
            >
              {key}
            </Box>
            <Typography variant="body2">{label}</Typography>
          </Box>
        ))}
      </Box>
    </TotalsPanel>
  );
}
