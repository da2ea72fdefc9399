import { type CouponValidation, couponValidateInputSchema, evaluateCoupon } from '@balcao/core/coupon';
import { ON_DELIVERY_METHOD_LABELS, ON_DELIVERY_METHODS, type OnDeliveryMethod } from '@balcao/core/delivery';
import { maskDocument } from '@balcao/core/document';
import { formatCents } from '@balcao/core/money';
import {
  DEFERRED_METHODS,
  defaultDueDate,
  formatPercentHundredths,
  INSTALLMENT_METHODS,
  MAX_INSTALLMENTS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS_IN_PDV,
  parsePercentToHundredths,
  paymentInputSchema,
  type SaleTotals,
} from '@balcao/core/sale';
import { STORE_CREDIT_MESSAGES } from '@balcao/core/saleReturn';
import type { PaymentMethod } from '@balcao/core/status';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Form, FormMoneyField, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { centsOf, centsToInput, MoneyField } from '../../components/MoneyField.tsx';
import { ApiError } from '../../lib/api.ts';
import { shopToday } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import { offeredMethods, useEnabledMealVouchers, usePdvSurchargeLabel } from '../fee-simulator/index.ts';
import { useNfceOn } from '../fiscal/index.ts';
import type { LocalCatalog } from '../offline/index.ts';
import { isOffline, useOffline } from '../offline/index.ts';
import { PixDynamicCharge, useRemovePixCharge } from '../pix/index.ts';
import { PixQr, useStoreCredit } from '../sale/index.ts';
import { useCustomerCredit, validateCoupon } from './api.ts';
import { type PdvAction, type PdvState, pdvPaymentCheck, pixAttemptKey } from './state.ts';

type Props = {
  state: PdvState;
  totals: SaleTotals;
  dispatch: (action: PdvAction) => void;
  onFinish: () => void;
  finishing: boolean;
  finishError: string | null;
  /** Show the discount and coupon fields (default). A budget's conversion keeps the budget's discount. */
  discount?: boolean;
  /** The local copy (issue 21): coupons are checked on it when the PDV is offline. */
  catalog?: LocalCatalog;
};

let paymentSeq = 0;

/** Step 2: discount (R$ or %), coupon, split payments, installments, due date, change, Pix QR. */
export function PaymentStep({
  state,
  totals,
  dispatch,
  onFinish,
  finishing,
  finishError,
  discount = true,
  catalog,
}: Props) {
  const paid = state.payments.reduce((s, p) => s + p.amountCents, 0);
  const remaining = Math.max(totals.finalAmountCents - paid, 0);
  const check = pdvPaymentCheck(state, totals.finalAmountCents);
  const creditShopCents = state.payments
    .filter((p) => p.method === 'creditShop')
    .reduce((s, p) => s + p.amountCents, 0);
  const credit = useCustomerCredit(state.customer?.id, creditShopCents);
  const offline = useOffline();
  // Issue 32: "CPF na nota?" only where the shop issues NFC-e.
  const nfceOn = useNfceOn();
  const { paymentGateway } = useSession();
  // Pix QR dinâmico (issue 33): each payment's charge, withdrawn at the bank when removed unpaid.
  const pixTxids = useRef(new Map<string, string>());
  const removePixCharge = useRemovePixCharge();
  // Each payment's remove button named apart (axe, issue 30): method and amount, position when alike.
  const paymentNames = state.payments.map(
    (p) =>
      `${PAYMENT_METHOD_LABELS[p.method]}${p.numberInstallments > 1 ? ` em ${p.numberInstallments}x` : ''} ${formatCents(p.amountCents)}`,
  );
  const paymentLabels = paymentNames.map(
    (name, i) =>
      `Remover pagamento ${name}${paymentNames.filter((n) => n === name).length > 1 ? `, ${i + 1}º` : ''}`,
  );

  return (
    <Stack spacing={3}>
      {offline && (
        <Alert severity="warning" data-testid="offline-payments">
          Sem conexão: crediário e boleto ficam indisponíveis (o limite de crédito do cliente só é conferido
          no servidor).
          {paymentGateway?.pixKey
            ? ' O QR do Pix usa a chave Pix salva neste aparelho.'
            : ' Pix com QR indisponível: a chave Pix da loja não está salva neste aparelho.'}{' '}
          Cartão: confirme a aprovação na maquininha, que não é conferida pelo sistema sem conexão. Pix QR
          dinâmico indisponível: a confirmação do banco chega pelo servidor; use o Pix QR Code estático.
        </Alert>
      )}
      {discount && <DiscountAndCoupon state={state} totals={totals} dispatch={dispatch} catalog={catalog} />}

      <Box>
        <Typography component="h2" variant="h6" gutterBottom>
          Pagamento
        </Typography>
        {state.payments.length > 0 && (
          <Stack spacing={1} sx={{ mb: 2 }} aria-label="Pagamentos" role="list">
            {state.payments.map((p, index) => (
              <Paper key={p.key} variant="outlined" sx={{ p: 1.5 }} role="listitem" data-testid="pdv-payment">
                <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
                  <Typography>
                    {PAYMENT_METHOD_LABELS[p.method]}
                    {p.numberInstallments > 1 ? ` em ${p.numberInstallments}x` : ''}
                    {p.dueDate && DEFERRED_METHODS.includes(p.method)
                      ? ` · 1º vencimento ${p.dueDate.split('-').reverse().join('/')}`
                      : ''}
                  </Typography>
                  <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
                    <Typography sx={{ fontWeight: 600 }}>{formatCents(p.amountCents)}</Typography>
                    <IconButton
                      size="small"
                      aria-label={paymentLabels[index]}
                      // A Pix the bank confirmed is money received: it stays with the sale.
                      disabled={p.method === 'pixQrCode' && p.pixPaid}
                      onClick={() => {
                        const txid = pixTxids.current.get(p.key);
                        if (p.method === 'pixQrCode' && txid) removePixCharge.mutate({ params: { txid } });
                        dispatch({
                          type: 'payments',
                          payments: state.payments.filter((x) => x.key !== p.key),
                        });
                      }}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Stack>
                </Stack>
                {p.method === 'paymentOnDelivery' && (
                  <OnDeliveryFields state={state} dispatch={dispatch} amountCents={p.amountCents} />
                )}
                {p.method === 'pixQrCode' && p.pixPaidNote && (
                  <Alert severity="success" sx={{ mt: 1.5 }} data-testid="pix-paid-note">
                    {p.pixPaidNote}
                  </Alert>
                )}
                {p.method === 'pixQrCode' && !p.pixPaidNote && (
                  <Box sx={{ mt: 1.5 }}>
                    <PixDynamicCharge
                      attemptKey={pixAttemptKey(state, p)}
                      amountCents={p.amountCents}
                      onCharge={(txid) => pixTxids.current.set(p.key, txid)}
                      onPaid={() =>
                        dispatch({
                          type: 'payments',
                          payments: state.payments.map((x) =>
                            x.key === p.key ? { ...x, pixPaid: true } : x,
                          ),
                        })
                      }
                    />
                  </Box>
                )}
                {p.method === 'pixQrCodeStatic' && (
                  <Box sx={{ mt: 1.5 }}>
                    <PixQr
                      amountCents={p.amountCents}
                      txid={state.idempotencyKey.replace(/[^A-Za-z0-9]/g, '').slice(0, 25)}
                    />
                  </Box>
                )}
              </Paper>
            ))}
          </Stack>
        )}
        <AddPaymentForm
          key={`${state.payments.length}-${remaining}-${offline}`}
          remaining={remaining}
          offline={offline}
          customerId={state.customer?.id ?? null}
          onAdd={(payment) => dispatch({ type: 'payments', payments: [...state.payments, payment] })}
        />
      </Box>

      {nfceOn && (
        <TextField
          label="CPF na nota?"
          value={state.consumerDocument ?? ''}
          onChange={(e) => dispatch({ type: 'consumerDocument', document: maskDocument(e.target.value) })}
          helperText="CPF ou CNPJ do consumidor na NFC-e (opcional)"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 18 } }}
          sx={{ maxWidth: 320 }}
        />
      )}

      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
          <Typography>Pago</Typography>
          <Typography data-testid="pdv-paid">{formatCents(paid)}</Typography>
        </Stack>
        {paid < totals.finalAmountCents && (
          <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
            <Typography color="warning.main">Falta pagar</Typography>
            <Typography color="warning.main" data-testid="pdv-remaining">
              {formatCents(totals.finalAmountCents - paid)}
            </Typography>
          </Stack>
        )}
        {check.ok && check.changeCents > 0 && (
          <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
            <Typography variant="h6">Troco</Typography>
            <Typography variant="h6" data-testid="pdv-change">
              {formatCents(check.changeCents)}
            </Typography>
          </Stack>
        )}
        {check.ok && check.status === 'pending' && (
          <Typography variant="body2" color="text.secondary">
            A venda ficará pendente até as parcelas serem pagas.
          </Typography>
        )}
      </Paper>

      {credit.data && credit.data.warnings.length > 0 && (
        <Alert severity="warning" data-testid="pdv-credit-warnings">
          {credit.data.warnings.map((w) => (
            <div key={w.code}>{w.message}</div>
          ))}
        </Alert>
      )}
      {!check.ok && paid >= totals.finalAmountCents && state.payments.length > 0 && (
        <Alert severity="error">{check.message}</Alert>
      )}
      {finishError && (
        <Alert severity="error" data-testid="pdv-finish-error">
          {finishError}
        </Alert>
      )}
      <Button
        variant="contained"
        size="large"
        onClick={onFinish}
        disabled={finishing || !check.ok || state.items.length === 0}
      >
        {finishing ? 'Finalizando...' : 'Finalizar venda (F9)'}
      </Button>
    </Stack>
  );
}

function AddPaymentForm({
  remaining,
  offline = false,
  customerId = null,
  onAdd,
}: {
  remaining: number;
  /** Offline: no crediário nor boleto (the customer's credit is checked by the server). */
  offline?: boolean;
  /** The sale's customer: vale-troca (issue 30) is offered with their balance, online only. */
  customerId?: number | null;
  onAdd: (p: PdvState['payments'][number]) => void;
}) {
  const storeCredit = useStoreCredit(customerId, !offline);
  const creditBalance = storeCredit.data?.balanceCents ?? 0;
  // An empty "Valor recebido" in cash is the exact amount due, as in the quick sale.
  const amountOf = (values: PaymentValues) =>
    values.method === 'money' && values.amount.trim() === '' ? remaining : centsOf(values.amount);
  const form = useAppForm({
    schema: paymentInputSchema,
    defaultValues: {
      method: 'money',
      amount: remaining ? centsToInput(remaining) : '',
      installments: 1,
      dueDate: defaultDueDate(shopToday()),
    } as PaymentValues,
    toInput: (values: PaymentValues) => ({
      method: values.method,
      amountCents: amountOf(values),
      numberInstallments: INSTALLMENT_METHODS.includes(values.method) ? values.installments : 1,
      dueDate: DEFERRED_METHODS.includes(values.method) ? values.dueDate : null,
    }),
    fieldOf: { amountCents: 'amount', numberInstallments: 'installments' },
    check: (values) =>
      amountOf(values) === 0
        ? [{ path: 'amount', message: 'Informe o valor do pagamento' }]
        : values.method === 'storeCredit' && amountOf(values) > creditBalance
          ? [{ path: 'amount', message: STORE_CREDIT_MESSAGES.insufficient(formatCents(creditBalance)) }]
          : [],
  });
  const [method, amount] = useWatch({ control: form.control, name: ['method', 'amount'] });
  const cents = centsOf(amount);
  const installmentsAllowed = INSTALLMENT_METHODS.includes(method);
  const deferred = DEFERRED_METHODS.includes(method);
  const surcharge = usePdvSurchargeLabel(method === 'creditCard');
  // Meal vouchers (issue 33): only the brands the shop enabled.
  const vouchers = useEnabledMealVouchers();

  const submit = (payment: z.output<typeof paymentInputSchema>) =>
    onAdd({
      key: `p${++paymentSeq}`,
      method: payment.method,
      amountCents: payment.amountCents,
      numberInstallments: payment.numberInstallments,
      dueDate: payment.dueDate,
    });

  return (
    <Form form={form} onSubmit={submit} aria-label="Adicionar pagamento">
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-start' } }}>
          <FormTextField
            control={form.control}
            name="method"
            select
            label="Forma de pagamento"
            fullWidth={false}
            sx={{ minWidth: 220 }}
          >
            {offeredMethods(PAYMENT_METHODS_IN_PDV, vouchers, method)
              .filter(
                (m) =>
                  (!offline || (!DEFERRED_METHODS.includes(m) && m !== 'pixQrCode')) &&
                  (m !== 'storeCredit' || (!offline && customerId !== null && creditBalance > 0)),
              )
              .map((m) => (
                <MenuItem key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </MenuItem>
              ))}
          </FormTextField>
          <FormMoneyField
            control={form.control}
            name="amount"
            label={method === 'money' ? 'Valor recebido' : 'Valor'}
            helperText={
              method === 'money'
                ? 'Em branco: o valor exato. Acima do total vira troco'
                : method === 'storeCredit'
                  ? STORE_CREDIT_MESSAGES.balance(formatCents(creditBalance))
                  : ' '
            }
            autoFocus
          />
          {installmentsAllowed && (
            <FormTextField
              control={form.control}
              name="installments"
              select
              label="Parcelas"
              fullWidth={false}
              sx={{ minWidth: 110 }}
            >
              {Array.from({ length: MAX_INSTALLMENTS }, (_, i) => i + 1).map((n) => (
                <MenuItem key={n} value={n}>
                  {n}x{!Number.isNaN(cents) && cents > 0 ? ` de ${formatCents(Math.floor(cents / n))}` : ''}
                  {surcharge(cents, n)}
                </MenuItem>
              ))}
            </FormTextField>
          )}
          {deferred && (
            <FormTextField
              control={form.control}
              name="dueDate"
              type="date"
              label="1º vencimento"
              fullWidth={false}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: shopToday() } }}
            />
          )}
          <SubmitButton variant="outlined" busyLabel="Adicionar" startIcon={<AddIcon />} sx={{ height: 56 }}>
            Adicionar
          </SubmitButton>
        </Stack>
      </Paper>
    </Form>
  );
}

type PaymentValues = { method: PaymentMethod; amount: string; installments: number; dueDate: string };

/** The sale's discount (R$ or %) and, unless `coupon` is false (a budget), the coupon code. */
export function DiscountAndCoupon({
  state,
  totals,
  dispatch,
  coupon = true,
  catalog,
}: Omit<Props, 'onFinish' | 'finishing' | 'finishError'> & { coupon?: boolean }) {
  const [kind, setKind] = useState(state.discountType);
  const [text, setText] = useState(
    state.discountValue
      ? state.discountType === 'percentage'
        ? formatPercentHundredths(state.discountValue).replace('%', '')
        : centsToInput(state.discountValue)
      : '',
  );
  const value =
    text.trim() === '' ? 0 : kind === 'percentage' ? parsePercentToHundredths(text) : centsOf(text);
  const invalid = Number.isNaN(value) || (kind === 'percentage' && value > 10000);

  useEffect(() => {
    if (!invalid && (value !== state.discountValue || kind !== state.discountType)) {
      dispatch({ type: 'discount', discountType: kind, discountValue: value });
    }
  }, [kind, value, invalid, state.discountValue, state.discountType, dispatch]);

  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
      <Box>
        <Typography component="h2" variant="h6" gutterBottom>
          Desconto
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={kind}
            onChange={(_, v) => v && setKind(v)}
            aria-label="Tipo de desconto"
            sx={{ height: 56 }}
          >
            <ToggleButton value="fixed_amount">R$</ToggleButton>
            <ToggleButton value="percentage">%</ToggleButton>
          </ToggleButtonGroup>
          <MoneyField
            label="Desconto na venda"
            value={text}
            onChange={setText}
            suffix={kind === 'percentage' ? '%' : undefined}
            error={invalid}
            helperText={
              invalid
                ? 'Desconto inválido'
                : totals.discountCents
                  ? `- ${formatCents(totals.discountCents)}`
                  : ' '
            }
          />
        </Stack>
      </Box>
      {coupon && (
        <Box>
          <Typography component="h2" variant="h6" gutterBottom>
            Cupom
          </Typography>
          {state.coupon ? (
            <Chip
              color="success"
              label={`${state.coupon.code}: - ${formatCents(totals.couponDiscountCents)}`}
              onDelete={() => dispatch({ type: 'coupon', coupon: null })}
              data-testid="pdv-coupon"
            />
          ) : (
            <CouponForm
              subtotalCents={totals.totalCents}
              customerId={state.customer?.id ?? null}
              catalog={catalog}
              onValid={(coupon) => dispatch({ type: 'coupon', coupon })}
            />
          )}
        </Box>
      )}
    </Stack>
  );
}

/** The coupon code, checked by the API against this sale's subtotal and customer. */
function CouponForm({
  subtotalCents,
  customerId,
  catalog,
  onValid,
}: {
  subtotalCents: number;
  customerId: number | null;
  catalog?: LocalCatalog;
  onValid: (coupon: CouponValidation['coupon']) => void;
}) {
  const form = useAppForm({
    schema: couponValidateInputSchema,
    defaultValues: { code: '' },
    toInput: ({ code }: { code: string }) => ({ code, subtotalCents, customerId }),
  });
  const submit = async (body: z.output<typeof couponValidateInputSchema>) => {
    // Offline: the last synced copy and the same rules; its uses are the server's, which flags a
    // coupon used up meanwhile when the sale arrives (issue 21).
    const local = async () => {
      const coupon = await catalog?.couponByCode(body.code);
      if (!coupon) throw new ApiError(404, 'Cupom não encontrado');
      const evaluation = evaluateCoupon(coupon, {
        subtotalCents,
        customerId,
        usesTotal: 0,
        usesByCustomer: 0,
        today: shopToday(),
      });
      if (!evaluation.ok) throw new ApiError(422, evaluation.reason);
      return coupon;
    };
    let coupon: CouponValidation['coupon'];
    if (catalog && isOffline()) coupon = await local();
    else {
      try {
        coupon = (await validateCoupon(body)).coupon;
      } catch (error) {
        if (!catalog || !(error instanceof ApiError) || error.status !== 0) throw error;
        coupon = await local();
      }
    }
    onValid(coupon);
    form.reset();
  };
  return (
    <Form
      form={form}
      onSubmit={submit}
      // A refused coupon says why under the code.
      onError={(message) => form.setError('code', { type: 'server', message })}
      aria-label="Cupom"
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <FormTextField
          control={form.control}
          name="code"
          label="Código do cupom"
          mask={(text) => text.toUpperCase()}
          fullWidth={false}
          helperText=" "
        />
        <SubmitButton variant="outlined" busyLabel="Validando..." sx={{ height: 56 }}>
          Aplicar
        </SubmitButton>
      </Stack>
    </Form>
  );
}

/** A payment on delivery: how the customer will pay and the note the driver brings change for. */
function OnDeliveryFields({
  state,
  dispatch,
  amountCents,
}: {
  state: PdvState;
  dispatch: (action: PdvAction) => void;
  amountCents: number;
}) {
  const method = state.onDelivery?.method ?? 'money';
  const [changeFor, setChangeFor] = useState(
    state.onDelivery?.changeForCents ? centsToInput(state.onDelivery.changeForCents) : '',
  );
  const changeForCents = changeFor ? centsOf(changeFor) : 0;
  const low = method === 'money' && changeForCents > 0 && changeForCents < amountCents;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1.5 }}>
      <TextField
        select
        size="small"
        label="Na entrega, paga com"
        value={method}
        onChange={(e) =>
          dispatch({
            type: 'onDelivery',
            onDelivery: { method: e.target.value as OnDeliveryMethod, changeForCents },
          })
        }
        sx={{ minWidth: 200 }}
      >
        {ON_DELIVERY_METHODS.map((m) => (
          <MenuItem key={m} value={m}>
            {ON_DELIVERY_METHOD_LABELS[m]}
          </MenuItem>
        ))}
      </TextField>
      {method === 'money' && (
        <MoneyField
          size="small"
          label="Troco para"
          value={changeFor}
          error={low}
          helperText={
            low
              ? 'O troco deve ser para um valor maior que o valor a receber'
              : changeForCents > amountCents
                ? `Levar troco de ${formatCents(changeForCents - amountCents)}`
                : ' '
          }
          onChange={(text) => {
            setChangeFor(text);
            dispatch({
              type: 'onDelivery',
              onDelivery: { method, changeForCents: text ? centsOf(text) : 0 },
            });
          }}
        />
      )}
    </Stack>
  );
}
