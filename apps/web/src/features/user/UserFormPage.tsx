import { can, WRITE } from '@balcao/core/routes';
import {
  assignableUserTypes,
  CANNOT_CHANGE_OWN_TYPE,
  CANNOT_DEACTIVATE_SELF,
  canManageUserType,
  MANAGER_CANNOT_TOUCH_ADMIN,
  type StaffUser,
  userCreateSchema,
  userUpdateSchema,
} from '@balcao/core/user';
import { USER_TYPES, type UserTypeId } from '@balcao/core/userTypes';
import { toNestErrors } from '@hookform/resolvers';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import {
  type Control,
  Controller,
  type FieldErrors,
  type FieldPath,
  type Resolver,
  useForm,
} from 'react-hook-form';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useIdFromPath } from '../../lib/useIdFromPath.ts';
import { useSession } from '../auth/session.tsx';
import { useCreateUser, useUpdateUser, useUser } from './api.ts';

const LIST = '/dashboard/user';

type FormValues = {
  name: string;
  email: string;
  userTypeId: number | '';
  active: boolean;
  password: string;
  passwordConfirmation: string;
};

function toFormValues(u?: StaffUser): FormValues {
  return {
    name: u?.name ?? '',
    email: u?.email ?? '',
    userTypeId: u?.userType.id ?? '',
    active: u?.active ?? true,
    password: '',
    passwordConfirmation: '',
  };
}

/** The shared core schemas validate the form (create needs a password; edit may keep the current one). */
function resolverFor(isEdit: boolean): Resolver<FormValues> {
  return async (values, _context, options) => {
    const input = { ...values, userTypeId: values.userTypeId === '' ? undefined : values.userTypeId };
    const result = isEdit
      ? userUpdateSchema.safeParse({ ...input, updatedAt: 'x' })
      : userCreateSchema.safeParse(input);
    if (result.success) return { values, errors: {} };
    const flat: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues)
      flat[issue.path.join('.')] ??= { type: issue.code, message: issue.message };
    return { values: {}, errors: toNestErrors(flat as FieldErrors, options) };
  };
}

/** Staff user form at /dashboard/user/new and /dashboard/user/edit/{id}. */
export default function UserFormPage() {
  const location = useLocation();
  const id = useIdFromPath('/dashboard/user/edit');
  const isEdit = id !== undefined;
  const validId = isEdit && !Number.isNaN(id);
  const user = useUser(validId ? id : undefined);

  let body: ReactNode;
  if (isEdit && !validId) body = <Alert severity="error">Usuário não encontrado</Alert>;
  else if (isEdit && user.isPending) body = <Loading />;
  else if (isEdit && user.isError) body = <Alert severity="error">{errorMessage(user.error)}</Alert>;
  else body = <UserForm key={location.pathname} user={isEdit ? user.data : undefined} />;

  return (
    <Box sx={{ maxWidth: 760 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        {isEdit ? 'Editar usuário' : 'Novo usuário'}
      </Typography>
      {body}
    </Box>
  );
}

function UserForm({ user }: { user?: StaffUser }) {
  const session = useSession();
  const actorType = session.user?.userType.id as UserTypeId;
  const isSelf = Boolean(user && user.id === session.user?.id);
  const [current, setCurrent] = useState(user);
  const canWrite =
    can(actorType, WRITE.users) &&
    (!current || canManageUserType(actorType, current.userType.id as UserTypeId));
  const navigate = useNavigate();
  const create = useCreateUser();
  const update = useUpdateUser();
  const { state: feedback, show, close } = useFeedback();
  const [formError, setFormError] = useState<string | null>(null);
  const { control, handleSubmit, setError, reset, formState } = useForm<FormValues>({
    defaultValues: toFormValues(user),
    resolver: resolverFor(Boolean(user)),
    mode: 'onTouched',
  });
  const types = assignableUserTypes(actorType);
  // Someone's current type is shown even when the actor could not give it.
  const options =
    current && !types.includes(current.userType.id as UserTypeId)
      ? [current.userType.id as UserTypeId, ...types]
      : types;

  const onSubmit = async (values: FormValues) => {
    setFormError(null);
    const base = {
      name: values.name,
      email: values.email,
      userTypeId: Number(values.userTypeId),
      active: values.active,
      password: values.password,
      passwordConfirmation: values.passwordConfirmation,
    };
    try {
      if (current) {
        const saved = await update.mutateAsync({
          id: current.id,
          body: { ...base, updatedAt: current.updatedAt },
        });
        setCurrent(saved);
        reset(toFormValues(saved));
        show({ severity: 'success', title: 'Usuário atualizado com sucesso' });
      } else {
        await create.mutateAsync(base);
        navigate(LIST, { state: { message: 'Usuário cadastrado com sucesso' } });
      }
    } catch (error) {
      if (error instanceof ApiError) {
        for (const issue of error.issues) {
          if (issue.path)
            setError(issue.path as FieldPath<FormValues>, { type: 'server', message: issue.message });
        }
      }
      setFormError(errorMessage(error));
      show({
        severity: 'error',
        title: current ? 'Erro ao editar usuário' : 'Erro ao cadastrar usuário',
        message: errorMessage(error),
      });
    }
  };

  return (
    <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Cadastro de usuário">
      <Stack spacing={2}>
        {!can(actorType, WRITE.users) && (
          <Alert severity="info">Só um Administrador ou Gerente pode cadastrar e alterar usuários.</Alert>
        )}
        {can(actorType, WRITE.users) && !canWrite && (
          <Alert severity="info">{MANAGER_CANNOT_TOUCH_ADMIN}</Alert>
        )}
        <Box component="fieldset" disabled={!canWrite} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
          <Paper sx={{ p: 2 }}>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormText control={control} name="name" label="Nome" required />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormText
                  control={control}
                  name="email"
                  label="Email"
                  type="email"
                  required
                  autoComplete="off"
                />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormText
                  control={control}
                  name="userTypeId"
                  label="Tipo de usuário"
                  select
                  required
                  disabled={isSelf || !canWrite}
                  helperText={isSelf ? CANNOT_CHANGE_OWN_TYPE : undefined}
                >
                  {options.map((typeId) => (
                    <MenuItem key={typeId} value={typeId} disabled={!types.includes(typeId)}>
                      {USER_TYPES[typeId]}
                    </MenuItem>
                  ))}
                </FormText>
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <Controller
                  control={control}
                  name="active"
                  render={({ field }) => (
                    <>
                      <FormControlLabel
                        control={
                          <Switch
                            checked={field.value}
                            onChange={(e) => field.onChange(e.target.checked)}
                            disabled={isSelf || !canWrite}
                          />
                        }
                        label="Usuário ativo"
                      />
                      <FormHelperText>
                        {isSelf ? CANNOT_DEACTIVATE_SELF : 'Desativar encerra o acesso do usuário na hora.'}
                      </FormHelperText>
                    </>
                  )}
                />
              </Grid>
              <Grid size={12}>
                <Typography variant="subtitle2" color="text.secondary">
                  {current ? 'Deixe a senha em branco para manter a atual.' : 'Senha de acesso do usuário.'}
                </Typography>
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormText
                  control={control}
                  name="password"
                  label={current ? 'Nova senha' : 'Senha'}
                  type="password"
                  required={!current}
                  autoComplete="new-password"
                />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormText
                  control={control}
                  name="passwordConfirmation"
                  label="Confirmar senha"
                  type="password"
                  required={!current}
                  autoComplete="new-password"
                />
              </Grid>
            </Grid>
          </Paper>
        </Box>
        {formError && <Alert severity="error">{formError}</Alert>}
        <Stack direction="row" spacing={1}>
          {canWrite && (
            <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
              {formState.isSubmitting ? (current ? 'Salvando...' : 'Cadastrando...') : 'Salvar'}
            </Button>
          )}
          <Button component={RouterLink} to={LIST}>
            Voltar para a lista
          </Button>
        </Stack>
      </Stack>
      <FeedbackSnackbar state={feedback} onClose={close} />
    </Box>
  );
}

type FormTextProps = Omit<TextFieldProps, 'name'> & {
  control: Control<FormValues>;
  name: FieldPath<FormValues>;
};

function FormText({ control, name, helperText, ...props }: FormTextProps) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          name={field.name}
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}
