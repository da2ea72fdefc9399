import { formatCents } from '@balcao/core/money';
import { CASH_MOVEMENT_LABELS } from '@balcao/core/sale';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { centsOf, MoneyField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useCashMovement } from './api.ts';

type Props = {
  type: 'deposit' | 'withdrawal' | null;
  /** Administrador/Gerente take a sangria without a manager's password. */
  isManager: boolean;
  moneyExpectedCents: number;
  onClose: () => void;
};

/** Suprimento (deposit) or sangria (withdrawal) with a reason; a sangria may need a manager approval. */
export function CashMovementDialog({ type, isManager, moneyExpectedCents, onClose }: Props) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const movement = useCashMovement();
  const needsApproval = type === 'withdrawal' && !isManager;
  const cents = centsOf(amount);

  const close = () => {
    setAmount('');
    setReason('');
    setEmail('');
    setPassword('');
    movement.reset();
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!type) return;
    movement.mutate(
      {
        type,
        amountCents: Number.isNaN(cents) ? -1 : cents,
        reason,
        ...(needsApproval ? { approval: { email, password } } : {}),
      },
      { onSuccess: close },
    );
  };

  const title = type ? CASH_MOVEMENT_LABELS[type] : '';
  return (
    <Dialog
      open={type !== null}
      onClose={close}
      aria-labelledby="cash-movement-title"
      fullWidth
      maxWidth="xs"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="cash-movement-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {type === 'withdrawal' && (
              <Typography variant="body2" color="text.secondary">
                Dinheiro no caixa: {formatCents(moneyExpectedCents)}
              </Typography>
            )}
            <MoneyField label="Valor" value={amount} onChange={setAmount} autoFocus required />
            <TextField label="Motivo" value={reason} onChange={(e) => setReason(e.target.value)} required />
            {needsApproval && (
              <>
                <Typography variant="body2">Aprovação de um Administrador ou Gerente:</Typography>
                <TextField
                  label="Email do gerente"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
                <TextField
                  label="Senha do gerente"
                  type="password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              </>
            )}
            {movement.isError && <Alert severity="error">{errorMessage(movement.error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancelar</Button>
          <Button type="submit" variant="contained" disabled={movement.isPending}>
            {movement.isPending ? 'Salvando...' : `Registrar ${title.toLowerCase()}`}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
