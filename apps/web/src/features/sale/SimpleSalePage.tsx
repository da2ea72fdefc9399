import { todayIso } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import {
  CASH_REGISTER_MESSAGES,
  checkPayments,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS_IN_PDV,
  type Sale,
} from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { Loading } from '../../components/Loading.tsx';
import { centsOf, MoneyField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useCurrentRegister } from '../cash-register/api.ts';
import { OpenRegisterDialog } from '../cash-register/OpenRegisterDialog.tsx';
import { PixQr } from '../pdv/PixQr.tsx';
import { newIdempotencyKey, useCreateSimpleSale } from './api.ts';
import { Receipt } from './Receipt.tsx';

/** Methods that make sense without a customer (crediário/boleto need one: use the PDV). */
const METHODS = PAYMENT_METHODS_IN_PDV.filter(
  (m) => !['creditShop', 'boleto', 'paymentOnDelivery'].includes(m),
);

/** /dashboard/sale/create-simple: a sale from a description and a value, no catalog items. */
export default function SimpleSalePage() {
  const register = useCurrentRegister();
  const create = useCreateSimpleSale();
  const [description, setDescription] = useState('');
  const [value, setValue] = useState('');
  const [method, setMethod] = useState<PaymentMethod>('money');
  const [received, setReceived] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [done, setDone] = useState<Sale | null>(null);

  const cents = centsOf(value);
  const receivedCents = centsOf(received);
  const check =
    !Number.isNaN(cents) && cents > 0
      ? checkPayments({
          finalAmountCents: cents,
          payments: [
            { method, amountCents: method === 'money' && receivedCents > cents ? receivedCents : cents },
          ],
          today: todayIso(),
        })
      : null;

  if (register.isPending) return <Loading text={CASH_REGISTER_MESSAGES.loading} />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!check?.ok) return;
    create.mutate(
      {
        key,
        body: {
          description,
          valueCents: cents,
          payments: [
            { method, amountCents: method === 'money' && receivedCents > cents ? receivedCents : cents },
          ],
        },
      },
      {
        onSuccess: (sale) => {
          setDone(sale);
          setKey(newIdempotencyKey());
          setDescription('');
          setValue('');
          setReceived('');
        },
      },
    );
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
        <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2 }}>
          <Stack spacing={2}>
            <TextField
              label="Descrição"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              required
              autoFocus
            />
            <MoneyField label="Valor" value={value} onChange={setValue} required />
            <TextField
              select
              label="Forma de pagamento"
              value={method}
              onChange={(e) => setMethod(e.target.value as PaymentMethod)}
            >
              {METHODS.map((m) => (
                <MenuItem key={m} value={m}>
                  {PAYMENT_METHOD_LABELS[m]}
                </MenuItem>
              ))}
            </TextField>
            {method === 'money' && (
              <MoneyField
                label="Valor recebido"
                value={received}
                onChange={setReceived}
                helperText="Deixe em branco se for o valor exato"
              />
            )}
            {check?.ok && check.changeCents > 0 && (
              <Typography variant="h6">Troco: {formatCents(check.changeCents)}</Typography>
            )}
            {method === 'pixQrCodeStatic' && check?.ok && (
              <PixQr amountCents={cents} txid={key.replace(/[^A-Za-z0-9]/g, '').slice(0, 25)} />
            )}
            {create.isError && <Alert severity="error">{errorMessage(create.error)}</Alert>}
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={create.isPending || !check?.ok || !description.trim()}
            >
              {create.isPending ? 'Finalizando...' : `Finalizar${check?.ok ? ` ${formatCents(cents)}` : ''}`}
            </Button>
          </Stack>
        </Paper>
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
