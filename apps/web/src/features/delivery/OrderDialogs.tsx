import { type DeliveryOrder, deliveryAssignSchema, deliveryCancelSchema } from '@balcao/core/delivery';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { ManagerApprovalFields } from '../../components/ManagerApprovalFields.tsx';
import { useOrderAction } from './api.ts';

/**
 * The panel's dialogs on the form kit (issue 30 item 21): assigning a driver and canceling an order.
 * Each sends its own move, so a refusal (a 409 because the board moved, a wrong approval) shows in
 * the dialog, under its field.
 */

export function AssignDialog({
  order,
  drivers,
  onClose,
  onDone,
}: {
  order: DeliveryOrder;
  drivers: { id: number; name: string; onShift: boolean }[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const action = useOrderAction();
  const form = useAppForm({
    schema: deliveryAssignSchema,
    defaultValues: { driver: order.driver ? String(order.driver.id) : '' },
    toInput: (v: { driver: string }) => ({ driverId: v.driver ? Number(v.driver) : undefined }),
    fieldOf: { driverId: 'driver' },
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="assign-order-title">
      <Form
        form={form}
        onSubmit={async (body) => {
          await action.mutateAsync({ id: order.id, action: 'assign', body });
          onDone('Entregador atribuído');
        }}
      >
        <DialogTitle id="assign-order-title">Atribuir entregador - pedido nº {order.saleNumber}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField control={form.control} name="driver" select label="Entregador">
              {drivers.map((d) => (
                <MenuItem key={d.id} value={String(d.id)}>
                  {d.name}
                  {d.onShift ? ' (em turno)' : ''}
                </MenuItem>
              ))}
            </FormTextField>
            {drivers.length === 0 && (
              <Typography variant="body2" color="text.secondary">
                Cadastre usuários do tipo Entregador em Usuários.
              </Typography>
            )}
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton busyLabel="Atribuindo...">Atribuir</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** Canceling an order cancels its sale (issue 30 item 5): a manager, or a manager's approval. */
export function CancelOrderDialog({
  order,
  needsApproval,
  onClose,
  onDone,
}: {
  order: DeliveryOrder;
  needsApproval: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const action = useOrderAction();
  const form = useAppForm({
    schema: deliveryCancelSchema,
    defaultValues: { reason: '', email: '', password: '' },
    toInput: ({ reason, email, password }: { reason: string; email: string; password: string }) => ({
      reason,
      ...(needsApproval ? { approval: { email, password } } : {}),
    }),
    fieldOf: { 'approval.email': 'email', 'approval.password': 'password' },
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="cancel-order-title">
      <Form
        form={form}
        onSubmit={async (body) => {
          await action.mutateAsync({ id: order.id, action: 'cancel', body });
          onDone('Pedido e venda cancelados');
        }}
      >
        <DialogTitle id="cancel-order-title">Cancelar pedido nº {order.saleNumber}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">
              A venda nº {order.saleNumber} também é cancelada: o estoque volta e ela sai das vendas do dia.
            </Typography>
            <FormTextField control={form.control} name="reason" label="Motivo" required autoFocus />
            {needsApproval && <ManagerApprovalFields />}
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton color="error" busyLabel="Cancelando...">
            Cancelar pedido
          </SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
