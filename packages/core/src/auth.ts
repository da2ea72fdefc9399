import { isValidCpfOrCnpj, isValidPhone, normalizeDocument, normalizePhone } from './document.ts';
import { CLIENT_TYPE_IDS, type ClientTypeId } from './userTypes.ts';
import { REQUIRED, z } from './zod.ts';

const EMAIL_MAX = 254;
const PASSWORD_MAX = 128;
const EMAIL_TOO_LONG = 'Email muito longo';
const PASSWORD_TOO_LONG = `Use no máximo ${PASSWORD_MAX} caracteres`;

/**
 * Login. One rule for passwords everywhere: a password is never altered (spaces are part of it); only
 * emails are trimmed. Both have maximum lengths, checked before any password work.
 */
export const loginInputSchema = z.object({
  email: z.string().trim().min(1, REQUIRED).max(EMAIL_MAX, EMAIL_TOO_LONG),
  password: z.string().min(1, REQUIRED).max(PASSWORD_MAX, PASSWORD_TOO_LONG),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

/** Create account, step 1: the company. */
export const accountCompanySchema = z.object({
  name: z.string().trim().min(2, 'Informe o nome da empresa').max(120, 'Use no máximo 120 caracteres'),
  document: z
    .string()
    .trim()
    .min(1, REQUIRED)
    .refine(isValidCpfOrCnpj, 'CPF ou CNPJ inválido')
    .transform(normalizeDocument),
  clientTypeId: z.coerce
    .number({ message: 'Selecione o segmento' })
    .refine((v) => CLIENT_TYPE_IDS.includes(v as ClientTypeId), 'Selecione o segmento'),
  phone: z
    .string()
    .trim()
    .min(1, REQUIRED)
    .refine(isValidPhone, 'Telefone inválido')
    .transform(normalizePhone),
});

export const PASSWORD_MIN = 8;

/** Create account, step 2: the owner (an Administrador). */
export const accountOwnerSchema = z
  .object({
    name: z.string().trim().min(2, 'Informe seu nome').max(120, 'Use no máximo 120 caracteres'),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .min(1, REQUIRED)
      .max(EMAIL_MAX, EMAIL_TOO_LONG)
      .email('Email inválido'),
    password: z
      .string()
      .min(PASSWORD_MIN, `A senha deve ter no mínimo ${PASSWORD_MIN} caracteres`)
      .max(PASSWORD_MAX, PASSWORD_TOO_LONG),
    passwordConfirmation: z.string().min(1, REQUIRED),
  })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: 'As senhas não conferem',
    path: ['passwordConfirmation'],
  });

export const createAccountInputSchema = z.object({
  systemClient: accountCompanySchema,
  user: accountOwnerSchema,
});
