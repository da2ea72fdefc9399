import { formatCents } from '@balcao/core/money';
import {
  bankAccountLabel,
  PAY_METHOD_LABELS,
  PAY_METHODS,
  PAY_SOURCE_LABELS,
  type Payable,
  payInputSchema,
} from '@balcao/core/payable';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import {
  Form,
  FormError,
  FormMoneyField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { centsOf, centsToInput } from '../../components/MoneyField.tsx';
import { newIdempotencyKey } from '../../lib/client.ts';
import { shopToday } from '../../lib/format.ts';
import { useBankAccounts, usePayPayable } from './api.ts';

type Values = {
  paidOn: string;
  amount: string;
  discount: string;
  interest: string;
  fine: string;
  method: string;
  /** "register", "bank" (an account not named) or "account:<id>" (one of the shop's bank accounts). */
  source: string;
};

/** The "De onde saiu o dinheiro" choice as the API's source and bank account. */
function sourceOf(choice: string): { source: string; bankAccountId: number | null } {
  if (choice.startsWith('account:')) return { source: 'bank', bankAccountId: Number(choice.slice(8)) };
  return { source: choice, bankAccountId: null };
}

const valuesOf = (payable: Payable | null): Values => ({
  paidOn: shopToday(),
  amount: payable ? centsToInput(payable.openCents) : '',
  discount: '',
  interest: '',
  fine: '',
  method: 'pix',
  source: 'bank',
});

const cents = (text: string) => {
  const value = centsOf(text);
  return Number.isNaN(value) ? -1 : value;
};

/**
 * Paying a payable (issue 34): full (the open balance) or part, the date, the method, where the money
 * came from (the open register, in cash: a withdrawal in its close; or a bank account), discount,
 * interest and fine. One Idempotency-Key per dialog: a retried save pays once.
 */
export function PayDialog({
  payable,
  onClose,
  onPaid,
}: {
  payable: Payable | null;
  onClose: () => void;
  onPaid: (payable: Payable) => void;
}) {
  const pay = usePayPayable();
  const accounts = useBankAccounts(payable !== null);
  const activeAccounts = (accounts.data ?? []).filter((a) => a.active);
  const key = useRef(newIdempotencyKey());
  const form = useAppForm({
    schema: payInputSchema,
    defaultValues: valuesOf(payable),
    toInput: (v: Values) => ({
      paidOn: v.paidOn,
      amountCents: cents(v.amount),
      discountCents: cents(v.discount || '0'),
      interestCents: cents(v.interest || '0'),
      fineCents: cents(v.fine || '0'),
      method: v.method,
      ...sourceOf(v.source),
    }),
    fieldOf: {
      bankAccountId: 'source',
      amountCents: 'amount',
      discountCents: 'discount',
      interestCents: 'interest',
      fineCents: 'fine',
    },
  });
  useEffect(() => {
    if (payable) {
      form.reset(valuesOf(payable));
      key.current = newIdempotencyKey();
    }
  }, [payable, form]);
  // With named accounts, the first active one is offered instead of an account not named.
  const firstAccount = activeAccounts[0]?.id;
  useEffect(() => {
    if (
      payable &&
      firstAccount &&
      form.getValues('source') === 'bank' &&
      !form.getFieldState('source').isDirty
    )
      form.setValue('source', `account:${firstAccount}`);
  }, [payable, firstAccount, form]);

  return (
    <Dialog open={payable !== null} onClose={onClose} aria-labelledby="pay-title" fullWidth maxWidth="xs">
      <Form
        form={form}
        onSubmit={async (body) => {
          if (!payable) return;
          const paid = await pay.mutateAsync({
            params: { id: payable.id },
            body,
            idempotencyKey: key.current,
          });
          onPaid(paid);
          onClose();
        }}
      >
        <DialogTitle id="pay-title">Pagar conta</DialogTitle>
        <DialogContent>
          {payable && (
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Typography variant="body2">
                {payable.description}: em aberto {formatCents(payable.openCents)}
              </Typography>
              <FormTextField
                control={form.control}
                name="paidOn"
                label="Data do pagamento"
                type="date"
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <FormMoneyField control={form.control} name="amount" label="Valor pago da conta" required />
              <Stack direction="row" spacing={1}>
                <FormMoneyField control={form.control} name="discount" label="Desconto" />
                <FormMoneyField control={form.control} name="interest" label="Juros" />
                <FormMoneyField control={form.control} name="fine" label="Multa" />
              </Stack>
              <FormTextField control={form.control} name="source" label="De onde saiu o dinheiro" select>
                <MenuItem value="register">{PAY_SOURCE_LABELS.register}</MenuItem>
                {activeAccounts.map((a) => (
                  <MenuItem key={a.id} value={`account:${a.id}`}>
                    {bankAccountLabel(a)}
                  </MenuItem>
                ))}
                <MenuItem value="bank">
                  {activeAccounts.length ? 'Outra conta bancária (não cadastrada)' : PAY_SOURCE_LABELS.bank}
                </MenuItem>
              </FormTextField>
              <FormTextField control={form.control} name="method" label="Forma de pagamento" select>
                {PAY_METHODS.map((m) => (
                  <MenuItem key={m} value={m}>
                    {PAY_METHOD_LABELS[m]}
                  </MenuItem>
                ))}
              </FormTextField>
              <FormError />
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancelar</Button>
          <SubmitButton busyLabel="Pagando...">Confirmar pagamento</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
