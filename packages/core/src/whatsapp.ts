import { REQUIRED, z } from './zod.ts';

/**
 * The shop's WhatsApp instance (Evolution API v2, INTEGRATIONS.md) as the settings page sees it. The
 * instance key Evolution issues is kept encrypted by the API and never part of any answer.
 */

/** Evolution's connection states, plus `refused` (too many QR codes without a scan). */
export const INSTANCE_STATE_LABELS: Record<string, string> = {
  open: 'Conectado',
  connecting: 'Conectando',
  close: 'Desconectado',
  refused: 'Recusado',
};

export const WHATSAPP_MESSAGES = {
  notCreated: 'A instância do WhatsApp ainda não foi criada.',
  alreadyCreated: 'A instância do WhatsApp já foi criada.',
  notConnected: 'O WhatsApp não está conectado. Conecte-o em Configurações > WhatsApp.',
  unavailable: 'O serviço do WhatsApp não respondeu. Tente novamente em instantes.',
  notConfigured: 'A integração com o WhatsApp não está configurada. Configure-a em Configurações > WhatsApp.',
  notOnWhatsapp: 'Este número não tem WhatsApp.',
  phone: 'Informe o número com DDD (10 ou 11 dígitos)',
  refused: 'Muitos códigos foram gerados sem leitura. Gere um novo código para tentar de novo.',
  pairingNotReady: 'O WhatsApp ainda não gerou o código de pareamento. Tente de novo em instantes.',
  /** The test message was sent but Evolution did not store it: reconciliation cannot work. */
  notStored:
    'O servidor do WhatsApp não guarda as mensagens enviadas (DATABASE_SAVE_DATA_NEW_MESSAGE=true está desligado): depois de uma queda, o envio de uma campanha não pode ser conferido e fica para uma pessoa conferir.',
} as const;

export const whatsappInstanceViewSchema = z.object({
  instanceName: z.string(),
  /** The instance exists in Evolution (created and its key stored). */
  created: z.boolean(),
  state: z.string(),
  /** The connected number (digits), empty while not connected. */
  phone: z.string(),
  profileName: z.string().nullable(),
  profilePictureUrl: z.string().nullable(),
  updatedAt: z.string(),
});
export type WhatsappInstanceView = z.infer<typeof whatsappInstanceViewSchema>;

/** A QR code to scan (or the pairing code to type) while connecting; null once open. */
export const whatsappQrSchema = z.object({
  base64: z.string().nullable(),
  code: z.string().nullable(),
  pairingCode: z.string().nullable(),
  count: z.number(),
});
export type WhatsappQr = z.infer<typeof whatsappQrSchema>;

export const whatsappConnectSchema = z.object({
  instance: whatsappInstanceViewSchema,
  qr: whatsappQrSchema.nullable(),
});
export type WhatsappConnect = z.infer<typeof whatsappConnectSchema>;

/** A Brazilian number for WhatsApp: 55 + DDD + number; the DDD+number form gets the 55. */
export function whatsappDigits(value: string): string | null {
  const digits = value.replace(/\D/g, '');
  if (digits.length === 10 || digits.length === 11) return `55${digits}`;
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) return digits;
  return null;
}

/**
 * THE identity of a WhatsApp number, for every comparison (opt-outs, campaign recipients, stored
 * messages, number checks): a Brazilian mobile written without its ninth digit (12 digits, as
 * Evolution's createJid stores DDDs 31 and above: `55 DD 8NNN NNNN`) is the same person as the
 * 13-digit form, so both become the 13-digit one. A subscriber number starting with 6-9 is a mobile
 * (landlines start with 2-5 and keep their 12 digits). Accepts a jid (`5531...@s.whatsapp.net`, a
 * `:device` suffix) or any written number; null when it is no Brazilian number (e.g. an `@lid` id).
 */
export function canonicalWhatsapp(value: string): string | null {
  const raw = value.trim();
  if (/@(lid|g\.us|broadcast)$/.test(raw)) return null;
  const digits = whatsappDigits(raw.split('@')[0].split(':')[0]);
  if (!digits) return null;
  if (digits.length === 12 && /^55[1-9][1-9][6-9]/.test(digits))
    return `${digits.slice(0, 4)}9${digits.slice(4)}`;
  return digits;
}

/**
 * Both ways a Brazilian mobile may be written or stored (13 digits, then 12 without the ninth
 * digit); a landline or a number from elsewhere has one form. Empty when not a number.
 */
export function whatsappForms(value: string): string[] {
  const canonical = canonicalWhatsapp(value);
  if (!canonical) return [];
  if (canonical.length === 13 && canonical[4] === '9' && /[6-9]/.test(canonical[5]))
    return [canonical, `${canonical.slice(0, 4)}${canonical.slice(5)}`];
  return [canonical];
}

/** Whether two numbers (or jids) are the same WhatsApp account (with or without the ninth digit). */
export function sameWhatsapp(a: string, b: string): boolean {
  const x = canonicalWhatsapp(a);
  return x !== null && x === canonicalWhatsapp(b);
}

const phoneField = z
  .string(REQUIRED)
  .trim()
  .min(1, REQUIRED)
  .refine((v) => whatsappDigits(v) !== null, WHATSAPP_MESSAGES.phone)
  .transform((v) => whatsappDigits(v) as string);

export const whatsappConnectInputSchema = z.object({
  /** Asks for a pairing code for this number instead of a QR code. */
  number: phoneField.optional(),
});

export const whatsappTestInputSchema = z.object({
  number: phoneField,
  text: z.string().trim().min(1, REQUIRED).max(1000, 'Use no máximo 1000 caracteres'),
});
export type WhatsappTestInput = z.input<typeof whatsappTestInputSchema>;

export const whatsappTestSentSchema = z.object({
  id: z.string(),
  /**
   * Whether Evolution stored the message (findMessages finds it: DATABASE_SAVE_DATA_NEW_MESSAGE=true),
   * null when that could not be asked. Campaign reconciliation after a crash needs it.
   */
  stored: z.boolean().nullable(),
});

export const whatsappOptOutInputSchema = z.object({ number: phoneField });
export const whatsappOptOutSchema = z.object({ number: z.string(), optedOut: z.boolean() });

/** The replies that take a number off every campaign (messages.upsert). */
export function isOptOutReply(text: string): boolean {
  const t = text
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
  return t === 'SAIR' || t === 'PARAR';
}
