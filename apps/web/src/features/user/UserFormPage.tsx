import { can, WRITE } from '@balcao/core/routes';
import {
  assignableUserTypes,
  CANNOT_CHANGE_OWN_TYPE,
  CANNOT_DEACTIVATE_SELF,
  canManageUserType,
  MANAGER_CANNOT_TOUCH_ADMIN,
  type StaffUser,
  type UserCreateInput,
  userCreateSchema,
  userUpdateSchema,
} from '@balcao/core/user';
import { USER_TYPES, type UserTypeId } from '@balcao/core/userTypes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, FormTextField, useAppForm } from '../../components/form.tsx';
import {
  RecordFormActions,
  RecordFormPage,
  useEditId,
  useRecordSave,
} from '../../components/RecordFormPage.tsx';
import { useSession } from '../auth/index.ts';
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

type Parsed = z.output<typeof userCreateSchema> | z.output<typeof userUpdateSchema>;

/** What the shared core schemas read: no type chosen is a missing type. */
const toInput = (values: FormValues) => ({
  ...values,
  userTypeId: values.userTypeId === '' ? undefined : values.userTypeId,
});

/** Staff user form at /dashboard/user/new and /dashboard/user/edit/{id}. */
export default function UserFormPage() {
  const edit = useEditId(LIST);
  const user = useUser(edit.id);
  return (
    <RecordFormPage
      edit={edit}
      record={user}
      title={['Novo usuário', 'Editar usuário']}
      notFound="Usuário não encontrado"
      maxWidth={760}
    >
      {(user) => <UserForm user={user} />}
    </RecordFormPage>
  );
}

function UserForm({ user }: { user?: StaffUser }) {
  const session = useSession();
  const actorType = session.user?.userType.id as UserTypeId;
  const isSelf = Boolean(user && user.id === session.user?.id);
  const { state: feedback, show, close } = useFeedback();
  // Create needs a password; an edit may keep the current one (and checks the version it loaded).
  const form = useAppForm<FormValues, Parsed>({
    schema: user ? userUpdateSchema : userCreateSchema,
    defaultValues: toFormValues(user),
    toInput: (values) => ({ ...toInput(values), ...(user ? { updatedAt: user.updatedAt } : {}) }),
  });
  const create = useCreateUser();
  const update = useUpdateUser();
  const { current, save, onError } = useRecordSave({
    record: user,
    // A create happens only on the new page, where the form parses with the create schema.
    create: { mutateAsync: (body: Parsed) => create.mutateAsync({ body: body as UserCreateInput }) },
    update: { mutateAsync: ({ id, body }) => update.mutateAsync({ params: { id }, body }) },
    reset: (saved) => form.reset(toFormValues(saved)),
    list: LIST,
    show,
    messages: {
      updated: 'Usuário atualizado com sucesso',
      created: 'Usuário cadastrado com sucesso',
      editFailed: 'Erro ao editar usuário',
      createFailed: 'Erro ao cadastrar usuário',
    },
  });
  const canWrite =
    can(actorType, WRITE.users) &&
    (!current || canManageUserType(actorType, current.userType.id as UserTypeId));
  const { control } = form;
  const types = assignableUserTypes(actorType);
  // Someone's current type is shown even when the actor could not give it.
  const options =
    current && !types.includes(current.userType.id as UserTypeId)
      ? [current.userType.id as UserTypeId, ...types]
      : types;

  const onSubmit = (values: Parsed) =>
    save({
      name: values.name,
      email: values.email,
      userTypeId: values.userTypeId,
      active: values.active,
      password: values.password ?? '',
      passwordConfirmation: values.passwordConfirmation ?? '',
    });

  return (
    <Form form={form} onSubmit={onSubmit} onError={onError} aria-label="Cadastro de usuário">
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
                <FormTextField control={control} name="name" label="Nome" required />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField
                  control={control}
                  name="email"
                  label="Email"
                  type="email"
                  required
                  autoComplete="off"
                />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField
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
                </FormTextField>
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
                <FormTextField
                  control={control}
                  name="password"
                  label={current ? 'Nova senha' : 'Senha'}
                  type="password"
                  required={!current}
                  autoComplete="new-password"
                />
              </Grid>
              <Grid size={{ xs: 12, md: 6 }}>
                <FormTextField
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
        <RecordFormActions editing={Boolean(current)} canWrite={canWrite} list={LIST} />
      </Stack>
      <FeedbackSnackbar state={feedback} onClose={close} />
    </Form>
  );
}
