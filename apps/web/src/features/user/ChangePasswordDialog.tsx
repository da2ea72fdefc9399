import { type ChangePasswordInput, changePasswordSchema } from '@balcao/core/user';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { Controller, type FieldPath, useForm } from 'react-hook-form';
import { ApiError, errorMessage } from '../../lib/api.ts';
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
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, reset, setError, formState } = useForm<ChangePasswordInput>({
    defaultValues: EMPTY,
    resolver: zodResolver(changePasswordSchema),
  });

  const close = () => {
    if (formState.isSubmitting) return;
    reset(EMPTY);
    setDone(false);
    setFormError(null);
    onClose();
  };

  const onSubmit = async (values: ChangePasswordInput) => {
    setFormError(null);
    try {
      await mutation.mutateAsync(values);
      reset(EMPTY);
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0) {
        for (const issue of error.issues) {
          setError(issue.path as FieldPath<ChangePasswordInput>, { type: 'server', message: issue.message });
        }
      } else setFormError(errorMessage(error));
    }
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>Alterar senha</DialogTitle>
      <form noValidate onSubmit={handleSubmit(onSubmit)}>
        <DialogContent>
          {done ? (
            <Alert severity="success">
              Senha alterada com sucesso. Suas outras sessões foram encerradas.
            </Alert>
          ) : (
            <Stack spacing={2} sx={{ pt: 1 }}>
              {FIELDS.map(({ name, label, autoComplete }) => (
                <Controller
                  key={name}
                  control={control}
                  name={name}
                  render={({ field, fieldState }) => (
                    <TextField
                      {...field}
                      inputRef={field.ref}
                      label={label}
                      type="password"
                      autoComplete={autoComplete}
                      required
                      fullWidth
                      disabled={formState.isSubmitting}
                      error={Boolean(fieldState.error)}
                      helperText={fieldState.error?.message}
                    />
                  )}
                />
              ))}
              {formError && <Alert severity="error">{formError}</Alert>}
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{done ? 'Fechar' : 'Cancelar'}</Button>
          {!done && (
            <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
              {formState.isSubmitting ? 'Salvando...' : 'Alterar senha'}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
