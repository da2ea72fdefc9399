import { CASH_REGISTER_MESSAGES } from '@balcao/core/sale';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { centsOf, MoneyField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useOpenRegister } from './api.ts';

/** showModalOpenCashRegister (spec 3): the user has no open register, so the PDV asks to open one. */
export function OpenRegisterDialog({ open }: { open: boolean }) {
  const [amount, setAmount] = useState('');
  const opening = useOpenRegister();
  const cents = centsOf(amount);
  const invalid = Number.isNaN(cents);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (invalid) return;
    opening.mutate({ openingAmountCents: cents });
  };

  return (
    <Dialog open={open} aria-labelledby="open-register-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="open-register-title">Abrir caixa</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {CASH_REGISTER_MESSAGES.mustOpen}. Informe o valor em dinheiro que está na gaveta (troco inicial).
          </DialogContentText>
          <MoneyField
            label="Valor de abertura"
            value={amount}
            onChange={setAmount}
            autoFocus
            fullWidth
            error={invalid}
            helperText={invalid ? 'Valor inválido' : ' '}
          />
          {opening.isError && <Alert severity="error">{errorMessage(opening.error)}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button component={RouterLink} to="/dashboard/sale">
            Voltar
          </Button>
          <Button type="submit" variant="contained" disabled={opening.isPending || invalid}>
            {opening.isPending ? 'Abrindo...' : 'Abrir caixa'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
