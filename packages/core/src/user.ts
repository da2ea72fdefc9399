import { PASSWORD_MIN } from './auth.ts';
import { personNameSchema } from './fields.ts';
import { booleanFilter, listQuerySchema } from './list.ts';
import { refSchema, timestampFields } from './responses.ts';
import { USER_TYPE_IDS, USER_TYPES, UserType, type UserTypeId } from './userTypes.ts';
import { REQUIRED, z } from './zod.ts';

/** Staff users of a client (issue 5). */

export const EMAIL_TAKEN = 'Este email já está em uso';
export const USER_NOT_FOUND = 'Usuário não encontrado';
export const LAST_ADMIN =
  'É preciso manter pelo menos um Administrador ativo. Cadastre ou ative outro Administrador antes.';
export const CANNOT_CHANGE_OWN_TYPE = 'Você não pode alterar o seu próprio tipo de usuário';
export const CANNOT_DEACTIVATE_SELF = 'Você não pode desativar o seu próprio usuário';
export const CANNOT_DELETE_SELF = 'Você não pode excluir o seu próprio usuário';
export const MANAGER_CANNOT_TOUCH_ADMIN = 'Um Gerente não pode cadastrar nem alterar um Administrador';
export const WRONG_CURRENT_PASSWORD = 'Senha atual incorreta';
export const PASSWORDS_DIFFER = 'As senhas não conferem';

const passwordSchema = z
  .string({ message: REQUIRED })
  .min(1, REQUIRED)
  .min(PASSWORD_MIN, `A senha deve ter no mínimo ${PASSWORD_MIN} caracteres`)
  .max(128, 'Use no máximo 128 caracteres');

const userTypeIdSchema = z.coerce
  .number({ message: 'Selecione o tipo de usuário' })
  .refine((v) => USER_TYPE_IDS.includes(v as UserTypeId), 'Selecione o tipo de usuário');

const userFields = {
  name: personNameSchema,
  email: z
    .string({ message: REQUIRED })
    .trim()
    .toLowerCase()
    .min(1, REQUIRED)
    .max(254, 'Email muito longo')
    .pipe(z.email('Email inválido')),
  userTypeId: userTypeIdSchema,
  active: z.boolean().default(true),
};

const samePasswords = (v: { password?: string; passwordConfirmation?: string }) =>
  (v.password ?? '') === (v.passwordConfirmation ?? '');

/** Create: the password is set by an Administrador or Gerente. */
export const userCreateSchema = z
  .object({ ...userFields, password: passwordSchema, passwordConfirmation: z.string().min(1, REQUIRED) })
  .refine(samePasswords, { message: PASSWORDS_DIFFER, path: ['passwordConfirmation'] });
export type UserCreateInput = z.input<typeof userCreateSchema>;

/** Edit: an empty password keeps the current one; `updatedAt` guards against stale edits. */
export const userUpdateSchema = z
  .object({
    ...userFields,
    password: z
      .string()
      .optional()
      .transform((v) => (v ? v : undefined))
      .pipe(passwordSchema.optional()),
    passwordConfirmation: z.string().optional(),
    updatedAt: z.string({ message: REQUIRED }).min(1, REQUIRED),
  })
  .refine(samePasswords, { message: PASSWORDS_DIFFER, path: ['passwordConfirmation'] });
export type UserUpdateInput = z.input<typeof userUpdateSchema>;

/** "Alterar senha" from the avatar menu. */
export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ message: REQUIRED })
      .min(1, REQUIRED)
      .max(128, 'Use no máximo 128 caracteres'),
    newPassword: passwordSchema,
    confirmation: z.string({ message: REQUIRED }).min(1, REQUIRED),
  })
  .refine((v) => v.newPassword === v.confirmation, { message: PASSWORDS_DIFFER, path: ['confirmation'] })
  .refine((v) => v.newPassword !== v.currentPassword, {
    message: 'A nova senha deve ser diferente da atual',
    path: ['newPassword'],
  });
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

export const userListQuerySchema = listQuerySchema.extend({
  active: booleanFilter,
  userTypeId: z.coerce
    .number()
    .refine((v) => USER_TYPE_IDS.includes(v as UserTypeId), 'Tipo de usuário inválido')
    .optional(),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;

/** The user types an actor may give or edit: a Gerente cannot manage an Administrador. */
export function assignableUserTypes(actorTypeId: UserTypeId): UserTypeId[] {
  if (actorTypeId === UserType.ADMIN) return [...USER_TYPE_IDS];
  if (actorTypeId === UserType.MANAGER) return USER_TYPE_IDS.filter((id) => id !== UserType.ADMIN);
  return [];
}

export function canManageUserType(actorTypeId: UserTypeId, targetTypeId: UserTypeId): boolean {
  return assignableUserTypes(actorTypeId).includes(targetTypeId);
}

export const userTypeName = (id: number): string => USER_TYPES[id as UserTypeId] ?? '';

export const staffUserSchema = z.object({
  id: z.number(),
  clientId: z.number(),
  name: z.string(),
  email: z.string(),
  userType: refSchema,
  active: z.boolean(),
  ...timestampFields,
});
export type StaffUser = z.infer<typeof staffUserSchema>;
