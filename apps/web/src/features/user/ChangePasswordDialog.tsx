import { type ChangePasswordInput, changePasswordSchema } from '@balcao/core/user';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import type { FieldPath } from 'react-hook-form';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { useChangeMyPassword } from './api.ts';

const EMPTY: ChangePasswordInput = { currentPassword: '', newPassword: '', confirmation: '' };

const FIELDS: { name: FieldPath<ChangePasswordInput>; label: string; autoComplete: string }[] = [
  { name: 'currentPassword', label: 'Senha atual', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'Nova senha', autoComplete: 'new-password' },
  { name: 'confirmation', label: 'Confirmar nova senha', autoComplete: 'new-password' },
];

/** "Alterar senha" from the avatar menu: the current password, the new one twice. Other sessions end. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  const mutation = useChangeMyPassword();
  const [done, setDone] = useState(false);
  const form = useAppForm({ schema: changePasswordSchema, defaultValues: EMPTY });
  const { isSubmitting } = form.formState;

  const close = () => {
    if (isSubmitting) return;
    form.reset(EMPTY);
    setDone(false);
    onClose();
  };

  const onSubmit = async (values: ChangePasswordInput) => {
    await mutation.mutateAsync({ body: values });
    form.reset(EMPTY);
    setDone(true);
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>Alterar senha</DialogTitle>
      <Form form={form} onSubmit={onSubmit}>
        <DialogContent>
          {done ? (
            <Alert severity="success">
              Senha alterada com sucesso. Suas outras sessões foram encerradas.
            </Alert>
          ) : (
            <Stack spacing={2} sx={{ pt: 1 }}>
              {FIELDS.map(({ name, label, autoComplete }) => (
                <FormTextField
                  key={name}
                  control={form.control}
                  name={name}
                  label={label}
                  type="password"
                  autoComplete={autoComplete}
                  required
                  disabled={isSubmitting}
                />
              ))}
              <FormError />
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{done ? 'Fechar' : 'Cancelar'}</Button>
          {!done && <SubmitButton busyLabel="Salvando...">Alterar senha</SubmitButton>}
        </DialogActions>
      </Form>
    </Dialog>
  );
}
