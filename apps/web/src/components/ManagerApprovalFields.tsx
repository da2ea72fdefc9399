import Typography from '@mui/material/Typography';
import { useFormContext } from 'react-hook-form';
import { FormTextField } from './form.tsx';

/**
 * The approval of an Administrador or Gerente for an action the user may not do alone (a cash
 * withdrawal, a sale's cancel): their email and password, in the form's `email` and `password`.
 */
export function ManagerApprovalFields() {
  const { control } = useFormContext();
  return (
    <>
      <Typography variant="body2">Aprovação de um Administrador ou Gerente:</Typography>
      <FormTextField control={control} name="email" label="Email do gerente" />
      <FormTextField control={control} name="password" label="Senha do gerente" type="password" />
    </>
  );
}
