import { REQUIRED, z } from './zod.ts';

/** CEP (Brazilian postal code): 8 digits, shown as 00000-000. */

export const CEP_INVALID = 'CEP inválido';
export const CEP_NOT_FOUND = 'CEP não encontrado';
export const CEP_UNAVAILABLE = 'Não foi possível consultar o CEP agora. Preencha o endereço manualmente.';

export function normalizeCep(value: string): string {
  return value.replace(/\D/g, '');
}

/** 8 digits once the mask is stripped; "00000000" is not a CEP. */
export function isValidCep(value: string): boolean {
  const cep = value.trim();
  if (!/^\d{5}-?\d{3}$/.test(cep) && !/^\d{2}\.\d{3}-\d{3}$/.test(cep)) return false;
  return normalizeCep(cep) !== '00000000';
}

/** Formats as the user types: "01001000" -> "01001-000". */
export function maskCep(value: string): string {
  const digits = normalizeCep(value).slice(0, 8);
  return digits.length > 5 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}

/** The 27 federative units. */
export const BRAZIL_STATES = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;

export const cepSchema = z
  .string({ message: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .refine(isValidCep, CEP_INVALID)
  .transform(normalizeCep);

export const stateSchema = z
  .string({ message: REQUIRED })
  .trim()
  .toUpperCase()
  .min(1, REQUIRED)
  .refine((v) => (BRAZIL_STATES as readonly string[]).includes(v), 'UF inválida');

/** What `GET /v1/cep/{cep}` answers: the address of a CEP, normalized from the provider's fields. */
export const cepAddressSchema = z.object({
  /** 8 digits. */
  zipCode: z.string(),
  street: z.string(),
  complement: z.string(),
  neighborhood: z.string(),
  city: z.string(),
  state: z.string(),
  ibge: z.string(),
});
export type CepAddress = z.infer<typeof cepAddressSchema>;
