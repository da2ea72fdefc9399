import { approvalSchema } from '@balcao/core/sale';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { Form, FormError, SubmitButton, useAppForm } from '../../components/form.tsx';
import { ManagerApprovalFields } from '../../components/ManagerApprovalFields.tsx';

type Values = { email: string; password: string };
const EMPTY: Values = { email: '', password: '' };

/**
 * A discount above the operator's limit (issue 12 point 9): the API refused the sale naming the
 * limit; a manager types their email and password here and the sale is sent again with the approval
 * (the same Idempotency-Key: it is still one sale). A wrong password shows under the fields.
 */
export function DiscountApprovalDialog({
  message,
  onApprove,
  onClose,
}: {
  /** The API's refusal (null: closed). */
  message: string | null;
  onApprove: (approval: Values) => Promise<void>;
  onClose: () => void;
}) {
  const form = useAppForm({
    schema: approvalSchema,
    defaultValues: EMPTY,
    fieldOf: { approval: 'password' },
  });
  const close = () => {
    form.reset(EMPTY);
    onClose();
  };
  return (
    <Dialog
      open={message !== null}
      onClose={close}
      aria-labelledby="discount-approval-title"
      fullWidth
      maxWidth="xs"
    >
      <Form
        form={form}
        onSubmit={async (values) => {
          await onApprove({ email: values.email, password: values.password });
          form.reset(EMPTY);
        }}
      >
        <DialogTitle id="discount-approval-title">Aprovação do desconto</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="warning">{message}</Alert>
            <ManagerApprovalFields />
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancelar</Button>
          <SubmitButton busyLabel="Aprovando...">Aprovar e finalizar</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
