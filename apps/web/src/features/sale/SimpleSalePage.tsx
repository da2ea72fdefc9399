import { CASH_REGISTER_MESSAGES } from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import {
  checkPayments,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS_IN_PDV,
  type Sale,
  type SimpleSaleData,
  simpleSaleInputSchema,
} from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import {
  Form,
  FormError,
  FormMoneyField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { centsOf } from '../../components/MoneyField.tsx';
import { newIdempotencyKey } from '../../lib/client.ts';
import { shopToday } from '../../lib/format.ts';
import { OpenRegisterDialog, useCurrentRegister } from '../cash-register/index.ts';
import { offeredMethods, useEnabledMealVouchers } from '../fee-simulator/index.ts';
import { useCreateSimpleSale } from './api.ts';
import { PixQr } from './PixQr.tsx';
import { Receipt } from './Receipt.tsx';

/** Methods that make sense without a customer (crediário/boleto/vale-troca need one: use the PDV). */
const METHODS = PAYMENT_METHODS_IN_PDV.filter(
  (m) => !['creditShop', 'boleto', 'paymentOnDelivery', 'storeCredit'].includes(m),
);

/** /dashboard/sale/create-simple: a sale from a description and a value, no catalog items. */
type Values = { description: string; value: string; method: PaymentMethod; received: string };
const EMPTY: Values = { description: '', value: '', method: 'money', received: '' };

/** The one payment: the value, or what the customer handed over in money when it is more (change). */
function paymentOf({ value, method, received }: Values) {
  const cents = centsOf(value);
  const receivedCents = centsOf(received);
  return { method, amountCents: method === 'money' && receivedCents > cents ? receivedCents : cents };
}

/** /dashboard/sale/create-simple: a sale from a description and a value, no catalog items. */
export default function SimpleSalePage() {
  const register = useCurrentRegister();
  const create = useCreateSimpleSale();
  // Meal vouchers (issue 33): only the brands the shop enabled.
  const vouchers = useEnabledMealVouchers();
  const [key, setKey] = useState(newIdempotencyKey);
  const [done, setDone] = useState<Sale | null>(null);
  const form = useAppForm({
    schema: simpleSaleInputSchema,
    defaultValues: EMPTY,
    toInput: (values: Values) => ({
      description: values.description,
      valueCents: centsOf(values.value),
      payments: [paymentOf(values)],
    }),
    fieldOf: { valueCents: 'value', 'payments.0.amountCents': 'received' },
  });
  const values = useWatch({ control: form.control }) as Values;
  const method = values.method;
  const cents = centsOf(values.value);
  const check =
    !Number.isNaN(cents) && cents > 0
      ? checkPayments({ finalAmountCents: cents, payments: [paymentOf(values)], today: shopToday() })
      : null;

  if (register.isPending) return <Loading text={CASH_REGISTER_MESSAGES.loading} />;

  const submit = async (body: SimpleSaleData) => {
    const sale = await create.mutateAsync({ body, idempotencyKey: key });
    setDone(sale);
    setKey(newIdempotencyKey());
    form.reset({ ...EMPTY, method });
  };

  return (
    <Box>
      <OpenRegisterDialog open={!register.data} />
      <Typography component="h1" variant="h5" gutterBottom>
        Venda simples
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 520px) minmax(0, 1fr)' },
        }}
      >
        <Form form={form} onSubmit={submit} aria-label="Venda simples">
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack spacing={2}>
              <FormTextField control={form.control} name="description" label="Descrição" required autoFocus />
              <FormMoneyField control={form.control} name="value" label="Valor" required />
              <FormTextField control={form.control} name="method" select label="Forma de pagamento">
                {offeredMethods(METHODS, vouchers, method).map((m) => (
                  <MenuItem key={m} value={m}>
                    {PAYMENT_METHOD_LABELS[m]}
                  </MenuItem>
                ))}
              </FormTextField>
              {method === 'money' && (
                <FormMoneyField
                  control={form.control}
                  name="received"
                  label="Valor recebido"
                  helperText="Deixe em branco se for o valor exato"
                />
              )}
              {check?.ok && check.changeCents > 0 && (
                <Typography variant="h6">Troco: {formatCents(check.changeCents)}</Typography>
              )}
              {method === 'pixQrCodeStatic' && check?.ok && (
                <PixQr amountCents={cents} txid={key.replace(/[^A-Za-z0-9]/g, '').slice(0, 25)} />
              )}
              <FormError />
              <SubmitButton size="large" busyLabel="Finalizando...">
                {`Finalizar${check?.ok ? ` ${formatCents(cents)}` : ''}`}
              </SubmitButton>
            </Stack>
          </Paper>
        </Form>
        {done && (
          <Box>
            <Alert severity="success" sx={{ mb: 2 }}>
              Venda nº {done.number} finalizada
              {done.changeCents > 0 ? ` · troco ${formatCents(done.changeCents)}` : ''}
            </Alert>
            <Receipt sale={done} />
          </Box>
        )}
      </Box>
    </Box>
  );
}
