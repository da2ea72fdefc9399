import {
  CASH_MOVEMENT_LABELS,
  type CashMovementInput,
  cashMovementInputSchema,
} from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import Alert from '@mui/material/Alert';
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
  /**
   * Offline (issue 21): the movement is kept on this device and sent when the connection returns.
   * A sangria that needs a manager's password cannot be approved offline.
   */
  offlineSave?: (input: CashMovementInput) => Promise<void>;
};

type Values = { amount: string; reason: string; email: string; password: string };
const EMPTY: Values = { amount: '', reason: '', email: '', password: '' };

/** Suprimento (deposit) or sangria (withdrawal) with a reason; a sangria may need a manager approval. */
export function CashMovementDialog({ type, isManager, moneyExpectedCents, onClose, offlineSave }: Props) {
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
          if (offlineSave) await offlineSave(values);
          else await movement.mutateAsync({ body: values });
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
            {needsApproval && offlineSave && (
              <Alert severity="warning" data-testid="offline-withdrawal">
                Sem conexão: a sangria precisa da aprovação de um gerente, que só é conferida no servidor.
                Faça-a quando a conexão voltar.
              </Alert>
            )}
            {offlineSave && !needsApproval && (
              <Typography variant="body2" color="text.secondary">
                Sem conexão: o movimento fica guardado neste aparelho e é enviado quando a conexão voltar.
              </Typography>
            )}
            {needsApproval && !offlineSave && <ManagerApprovalFields />}
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancelar</Button>
          {!(needsApproval && offlineSave) && (
            <SubmitButton busyLabel="Salvando...">{`Registrar ${title.toLowerCase()}`}</SubmitButton>
          )}
        </DialogActions>
      </Form>
    </Dialog>
  );
}
