import type { settingsChecklistSchema } from './session.ts';
import type { z } from './zod.ts';

/** User types (PRODUCT.md). Ids are stable: they are stored in the database. */
export const USER_TYPES = {
  1: 'Administrador',
  2: 'Gerente',
  3: 'Vendedor',
  4: 'Caixa',
  5: 'Garçom',
  6: 'Estoquista',
  7: 'Financeiro',
  8: 'Atendente',
  9: 'Marketing',
  10: 'Entregador',
  11: 'Entregador parceiro',
} as const;

export type UserTypeId = keyof typeof USER_TYPES;
export const USER_TYPE_IDS = Object.keys(USER_TYPES).map(Number) as UserTypeId[];

export const UserType = {
  ADMIN: 1,
  MANAGER: 2,
  SELLER: 3,
  CASHIER: 4,
  WAITER: 5,
  STOCKIST: 6,
  FINANCIAL: 7,
  ATTENDANT: 8,
  MARKETING: 9,
  DRIVER: 10,
  PARTNER_DRIVER: 11,
} as const satisfies Record<string, UserTypeId>;

/** Demo login slugs: `{slug}@demo.com.br`. */
export const USER_TYPE_SLUGS: Record<UserTypeId, string> = {
  1: 'administrador',
  2: 'gerente',
  3: 'vendedor',
  4: 'caixa',
  5: 'garcom',
  6: 'estoquista',
  7: 'financeiro',
  8: 'atendente',
  9: 'marketing',
  10: 'entregador',
  11: 'entregador-parceiro',
};

/** Client types (segments). */
export const CLIENT_TYPES = {
  1: 'Varejo geral',
  2: 'Moda e vestuário',
  3: 'Calçados',
  4: 'Mercado e mercearia',
  5: 'Padaria',
  6: 'Restaurante',
  7: 'Lanchonete',
  8: 'Bar',
  9: 'Pizzaria',
  10: 'Açaí e sorveteria',
  11: 'Farmácia',
  12: 'Pet shop',
  13: 'Material de construção',
  14: 'Eletrônicos e informática',
  15: 'Cosméticos e perfumaria',
  16: 'Serviços',
} as const;

export type ClientTypeId = keyof typeof CLIENT_TYPES;
export const CLIENT_TYPE_IDS = Object.keys(CLIENT_TYPES).map(Number) as ClientTypeId[];

export type SettingsChecklist = z.infer<typeof settingsChecklistSchema>;
export type ChecklistFlag = keyof SettingsChecklist;

const FOOD_SEGMENTS: readonly ClientTypeId[] = [5, 6, 7, 8, 9, 10];

/** Default flags of a new client of a segment: food segments start with comandas on. */
export function defaultChecklist(clientTypeId: ClientTypeId): SettingsChecklist {
  return { saleCommand: FOOD_SEGMENTS.includes(clientTypeId), stockManagement: true, checkIsOpen: false };
}

/** The settings that switch screens on, as the system settings page names them. */
export const CHECKLIST_FLAG_LABELS: Record<ChecklistFlag, string> = {
  saleCommand: 'Comandas',
  stockManagement: 'Controle de estoque',
  checkIsOpen: 'Horário de funcionamento',
};

/** Where the switches of the screens (the checklist flags) are changed. */
export const CHECKLIST_SETTINGS_PATH = '/dashboard/settings/system-client';
