import { CASH_MOVEMENT_LABELS, cashMovementInputSchema } from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  Form,
  FormError,
  FormMoneyField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { ManagerApprovalFields } from '../../components/ManagerApprovalFields.tsx';
import { centsOf } from '../../components/MoneyField.tsx';
import { useCashMovement } from './api.ts';

type Props = {
  type: 'deposit' | 'withdrawal' | null;
  /** Administrador/Gerente take a sangria without a manager's password. */
  isManager: boolean;
  moneyExpectedCents: number;
  onClose: () => void;
};

type Values = { amount: string; reason: string; email: string; password: string };
const EMPTY: Values = { amount: '', reason: '', email: '', password: '' };

/** Suprimento (deposit) or sangria (withdrawal) with a reason; a sangria may need a manager approval. */
export function CashMovementDialog({ type, isManager, moneyExpectedCents, onClose }: Props) {
  const movement = useCashMovement();
  const needsApproval = type === 'withdrawal' && !isManager;
  const form = useAppForm({
    schema: cashMovementInputSchema,
    defaultValues: EMPTY,
    toInput: ({ amount, reason, email, password }: Values) => {
      const cents = centsOf(amount);
      return {
        type,
        amountCents: Number.isNaN(cents) ? -1 : cents,
        reason,
        ...(needsApproval ? { approval: { email, password } } : {}),
      };
    },
    fieldOf: { amountCents: 'amount', 'approval.email': 'email', 'approval.password': 'password' },
  });

  const close = () => {
    form.reset(EMPTY);
    onClose();
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
      <Form
        form={form}
        onSubmit={async (values) => {
          await movement.mutateAsync(values);
          close();
        }}
      >
        <DialogTitle id="cash-movement-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {type === 'withdrawal' && (
              <Typography variant="body2" color="text.secondary">
                Dinheiro no caixa: {formatCents(moneyExpectedCents)}
              </Typography>
            )}
            <FormMoneyField control={form.control} name="amount" label="Valor" autoFocus required />
            <FormTextField control={form.control} name="reason" label="Motivo" required />
            {needsApproval && <ManagerApprovalFields />}
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancelar</Button>
          <SubmitButton busyLabel="Salvando...">{`Registrar ${title.toLowerCase()}`}</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
