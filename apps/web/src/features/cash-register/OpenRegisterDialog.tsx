import { CASH_REGISTER_MESSAGES, cashRegisterOpenSchema } from '@balcao/core/cashRegister';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { Link as RouterLink } from 'react-router';
import { Form, FormError, FormMoneyField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { centsOf } from '../../components/MoneyField.tsx';
import { useOpenRegister } from './api.ts';

/** showModalOpenCashRegister (spec 3): the user has no open register, so the PDV asks to open one. */
export function OpenRegisterDialog({ open }: { open: boolean }) {
  const opening = useOpenRegister();
  const form = useAppForm({
    schema: cashRegisterOpenSchema,
    defaultValues: { amount: '' },
    toInput: ({ amount }: { amount: string }) => ({ openingAmountCents: centsOf(amount) }),
    fieldOf: { openingAmountCents: 'amount' },
  });

  return (
    <Dialog open={open} aria-labelledby="open-register-title">
      <Form form={form} onSubmit={(values) => opening.mutateAsync({ body: values })}>
        <DialogTitle id="open-register-title">Abrir caixa</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {CASH_REGISTER_MESSAGES.mustOpen}. Informe o valor em dinheiro que está na gaveta (troco inicial).
          </DialogContentText>
          <FormMoneyField
            control={form.control}
            name="amount"
            label="Valor de abertura"
            autoFocus
            fullWidth
            helperText=" "
          />
          <FormError />
        </DialogContent>
        <DialogActions>
          <Button component={RouterLink} to="/dashboard/sale">
            Voltar
          </Button>
          <SubmitButton busyLabel="Abrindo...">Abrir caixa</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
