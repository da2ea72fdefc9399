import type { Upload } from './contract.ts';
import { addDays } from './date.ts';
import { listQuerySchema } from './list.ts';
import { updatedAtField } from './product.ts';
import { refSchema, timestampFields } from './responses.ts';
import { dateIn, isoToShopLocal, shopLocalToIso } from './time.ts';
import { REQUIRED, z } from './zod.ts';

/**
 * WhatsApp campaigns (issue 19): the message with its variables, the audience filters, the pacing
 * that keeps the shop's number from a ban (INTEGRATIONS.md "Campaign pacing") and the answers.
 */

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'finished', 'canceled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CAMPAIGN_STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Rascunho',
  scheduled: 'Agendada',
  running: 'Enviando',
  paused: 'Pausada',
  finished: 'Concluída',
  canceled: 'Cancelada',
};

export const RECIPIENT_STATUSES = ['waiting', 'sending', 'success', 'failed', 'skipped'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
export const RECIPIENT_STATUS_LABELS: Record<RecipientStatus, string> = {
  waiting: 'Aguardando',
  sending: 'Enviando',
  success: 'Enviada',
  failed: 'Falhou',
  skipped: 'Ignorada',
};

/** Every message ends with it (opt-out, LGPD); "SAIR" or "PARAR" in reply takes the number off. */
export const OPT_OUT_LINE = 'Para não receber mais mensagens, responda SAIR.';

export const CAMPAIGN_VARIABLES = ['{nome}', '{primeiro_nome}', '{loja}', '{cupom}'] as const;

/** A company's legal-form suffix, left out of how a message greets it ("Construtora Alfa Ltda"). */
const LEGAL_SUFFIX = /[\s,.-]+(ltda|me|epp|eireli|s\/?\.?a\.?|s\.\s?a\.?|sa|mei|ss)\.?$/i;

/**
 * What `{primeiro_nome}` says: a person's first name; a company's name without its legal form (a
 * company has no first name: "Olá Construtora Alfa!", never "Olá Construtora!").
 */
export function greetingName(name: string, personType: string = 'person'): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (personType !== 'company') return trimmed.split(' ')[0] ?? '';
  let short = trimmed;
  for (let i = 0; i < 3 && LEGAL_SUFFIX.test(short); i++) short = short.replace(LEGAL_SUFFIX, '').trim();
  return short || trimmed;
}

/** The message a customer gets: variables replaced, the opt-out line appended. */
export function renderCampaignMessage(
  template: string,
  values: { name: string; shop: string; coupon?: string | null; personType?: string },
): string {
  const name = values.name.trim();
  const text = template
    .replaceAll('{nome}', name)
    .replaceAll('{primeiro_nome}', greetingName(name, values.personType))
    .replaceAll('{loja}', values.shop)
    .replaceAll('{cupom}', values.coupon ?? '');
  return `${text.trim()}\n\n${OPT_OUT_LINE}`;
}

export const CAMPAIGN_MESSAGES = {
  notFound: 'Campanha não encontrada',
  categoryNotFound: 'Categoria de campanha não encontrada',
  couponNotFound: 'Cupom não encontrado',
  notEditable: 'Só é possível editar uma campanha que ainda não começou.',
  notStartable: 'Esta campanha já foi iniciada.',
  notPausable: 'Só é possível pausar uma campanha em envio.',
  notResumable: 'Só é possível retomar uma campanha pausada.',
  notCancelable: 'Esta campanha já terminou.',
  emptyAudience: 'Nenhum cliente com WhatsApp corresponde aos filtros.',
  couponInMessage: 'Anexe um cupom para usar {cupom} na mensagem.',
  scheduleFuture: 'A data de envio deve ser no futuro.',
  maxDelay: 'O intervalo máximo deve ser maior ou igual ao mínimo.',
  window: 'A janela de envio deve ter ao menos 1 hora, entre 06:00 e 22:00.',
  imageNotSupported: 'Envie uma imagem JPEG, PNG ou WebP',
  imageTooLarge: 'A imagem deve ter no máximo 5 MB',
  deleteStarted: 'Não é possível excluir uma campanha que já começou; cancele-a.',
} as const;

/**
 * A message whose send got no answer, that Evolution's stored messages cannot confirm either way
 * (it stores none: DATABASE_SAVE_DATA_NEW_MESSAGE off, or there is no message of the shop to check
 * that against): never sent again by the engine, left to a person to look at the chat.
 */
export const UNCONFIRMED_REASON =
  'Envio não confirmado: o WhatsApp não respondeu e o servidor não guarda as mensagens para conferir. Veja a conversa antes de reenviar.';

export const PAUSE_REASONS = {
  disconnected: 'O WhatsApp desconectou: a campanha foi pausada.',
  errors: 'Falhas seguidas no envio: a campanha foi pausada para proteger o número.',
  ban: 'O WhatsApp limitou o número: a campanha foi pausada.',
  manual: 'Pausada por um usuário.',
} as const;

const intIn = (min: number, max: number, label: string) =>
  z
    .number({ message: REQUIRED })
    .int('Informe um número inteiro')
    .min(min, `${label} deve ser no mínimo ${min}`)
    .max(max, `${label} deve ser no máximo ${max}`);

/**
 * The pacing defaults are INTEGRATIONS.md's numbers; the bounds keep edits safe. The sending window
 * (quiet hours outside it) is read in the shop's time zone: no message goes before `windowStart`
 * or from `windowEnd` on.
 */
export const PACING_DEFAULTS = {
  minDelaySeconds: 7,
  maxDelaySeconds: 8,
  pauseEvery: 10,
  pauseSeconds: 15,
  hourlyCap: 30,
  dailyCap: 200,
  windowStart: '08:00',
  windowEnd: '20:00',
} as const;

/** The widest sending window a shop may choose, and its shortest length (minutes). */
const WINDOW_BOUNDS = { earliest: '06:00', latest: '22:00', minMinutes: 60 } as const;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** "HH:MM" -> minutes since midnight. */
export const minutesOf = (hhmm: string) => {
  const m = HHMM.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
};
const timeOfDay = (fallback: string) =>
  z.string({ message: REQUIRED }).regex(HHMM, 'Informe a hora como HH:MM').default(fallback);

/**
 * The daily cap of a newly connected number over its first days (warm-up): bans are reported at
 * 40-50 messages a day on new numbers (INTEGRATIONS.md), so it starts under that and grows. From the
 * day after the schedule, the campaign's own daily cap applies alone.
 */
export const WARMUP_DAILY_CAPS = [20, 30, 40, 60, 80, 100, 130, 160, 200, 250] as const;

/** The warm-up cap on day `day` (1 = the day the number connected), or null once warmed up. */
export function warmupCap(day: number): number | null {
  if (day < 1) return WARMUP_DAILY_CAPS[0];
  return WARMUP_DAILY_CAPS[day - 1] ?? null;
}

export const pacingSchema = z
  .object({
    minDelaySeconds: intIn(3, 60, 'O intervalo mínimo'),
    maxDelaySeconds: intIn(3, 120, 'O intervalo máximo'),
    pauseEvery: intIn(5, 50, 'A pausa a cada'),
    pauseSeconds: intIn(10, 600, 'A pausa'),
    hourlyCap: intIn(1, 60, 'O limite por hora'),
    dailyCap: intIn(1, 500, 'O limite por dia'),
    windowStart: timeOfDay(PACING_DEFAULTS.windowStart),
    windowEnd: timeOfDay(PACING_DEFAULTS.windowEnd),
  })
  .refine((p) => p.maxDelaySeconds >= p.minDelaySeconds, {
    message: CAMPAIGN_MESSAGES.maxDelay,
    path: ['maxDelaySeconds'],
  })
  .refine(
    (p) =>
      minutesOf(p.windowStart) >= minutesOf(WINDOW_BOUNDS.earliest) &&
      minutesOf(p.windowEnd) <= minutesOf(WINDOW_BOUNDS.latest) &&
      minutesOf(p.windowEnd) - minutesOf(p.windowStart) >= WINDOW_BOUNDS.minMinutes,
    { message: CAMPAIGN_MESSAGES.window, path: ['windowEnd'] },
  );
export type Pacing = z.infer<typeof pacingSchema>;

const DELINQUENCY_FILTERS = ['any', 'yes', 'no'] as const;

export const audienceSchema = z.object({
  birthMonth: intIn(1, 12, 'O mês').nullable().default(null),
  boughtWithinDays: intIn(1, 3650, 'O número de dias').nullable().default(null),
  notBoughtForDays: intIn(1, 3650, 'O número de dias').nullable().default(null),
  spentAboveCents: intIn(0, 1_000_000_000, 'O valor').nullable().default(null),
  delinquent: z.enum(DELINQUENCY_FILTERS).default('any'),
  /** Customers carrying any of these tags (case-insensitive); empty = no tag filter. */
  tags: z
    .array(z.string().trim().min(1, REQUIRED).max(30, 'Use no máximo 30 caracteres por etiqueta'))
    .max(20, 'Use no máximo 20 etiquetas')
    .default([]),
});
export type Audience = z.output<typeof audienceSchema>;

const campaignFields = z.object({
  name: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(120, 'Use no máximo 120 caracteres'),
  categoryId: z.number().int().positive().nullable().default(null),
  message: z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(1000, 'Use no máximo 1000 caracteres'),
  couponId: z.number().int().positive().nullable().default(null),
  audience: audienceSchema.default({
    birthMonth: null,
    boughtWithinDays: null,
    notBoughtForDays: null,
    spentAboveCents: null,
    delinquent: 'any',
    tags: [],
  }),
  /** When to start: null = when someone presses send. */
  scheduledAt: z.iso.datetime({ offset: true, message: 'Data inválida' }).nullable().default(null),
  pacing: pacingSchema.default({ ...PACING_DEFAULTS }),
});

const couponVariableCheck = (c: { message: string; couponId: number | null }) =>
  !c.message.includes('{cupom}') || c.couponId !== null;

export const campaignInputSchema = campaignFields.refine(couponVariableCheck, {
  message: CAMPAIGN_MESSAGES.couponInMessage,
  path: ['message'],
});
export type CampaignInput = z.input<typeof campaignInputSchema>;
export const campaignUpdateSchema = campaignFields
  .extend({ updatedAt: updatedAtField })
  .refine(couponVariableCheck, { message: CAMPAIGN_MESSAGES.couponInMessage, path: ['message'] });

export const campaignProgressSchema = z.object({
  total: z.number(),
  waiting: z.number(),
  sending: z.number(),
  success: z.number(),
  failed: z.number(),
  skipped: z.number(),
});
export type CampaignProgress = z.infer<typeof campaignProgressSchema>;

export const campaignSchema = z.object({
  id: z.number(),
  name: z.string(),
  category: refSchema.nullable(),
  message: z.string(),
  /** The uploaded image (sent with every message), served by the API for the preview; null without one. */
  imageUrl: z.string().nullable(),
  coupon: z.object({ id: z.number(), code: z.string() }).nullable(),
  audience: audienceSchema,
  pacing: pacingSchema,
  scheduledAt: z.string().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
  pauseReason: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  progress: campaignProgressSchema,
  /** When the last message should go, at the pacing, caps, sending window and warm-up; null when nothing waits. */
  estimatedEndAt: z.string().nullable(),
  /** While sending, outside the sending window (quiet hours): when it opens again; null otherwise. */
  windowOpensAt: z.string().nullable(),
  /** The number's warm-up (its first days, a lower daily cap); null once warmed up or not connected. */
  warmup: z.object({ day: z.number(), days: z.number(), dailyCap: z.number() }).nullable(),
  ...timestampFields,
});
export type Campaign = z.infer<typeof campaignSchema>;

export const campaignListItemSchema = campaignSchema.pick({
  id: true,
  name: true,
  category: true,
  status: true,
  scheduledAt: true,
  progress: true,
  createdAt: true,
  updatedAt: true,
});
export type CampaignListItem = z.infer<typeof campaignListItemSchema>;

export const campaignListQuerySchema = listQuerySchema.extend({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  categoryId: z.coerce.number().int().positive().optional(),
});

/** The audience before sending: the spec's counters. */
export const audienceCountsSchema = z.object({
  total: z.number(),
  delinquent: z.number(),
  notDelinquent: z.number(),
  validWhatsapp: z.number(),
  invalidWhatsapp: z.number(),
  uncheckedWhatsapp: z.number(),
  optedOut: z.number(),
});
export type AudienceCounts = z.infer<typeof audienceCountsSchema>;

export const campaignRecipientSchema = z.object({
  id: z.number(),
  customerId: z.number().nullable(),
  name: z.string(),
  phone: z.string(),
  status: z.enum(RECIPIENT_STATUSES),
  reason: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type CampaignRecipient = z.infer<typeof campaignRecipientSchema>;

export const recipientListQuerySchema = listQuerySchema.extend({
  status: z.enum(RECIPIENT_STATUSES).optional(),
});

export const campaignCategoryInUseMessage = (n: number) =>
  `Não é possível excluir: ${n} ${n === 1 ? 'campanha usa' : 'campanhas usam'} esta categoria`;
export const CAMPAIGN_CATEGORY_NAME_TAKEN = 'Já existe uma categoria com este nome';

/**
 * The next moment a message may go: `instant` itself inside the shop's sending window, else the
 * window's next opening (today's when before it, tomorrow's after it), in the shop's time zone.
 */
export function nextInWindow(
  instant: number,
  window: { windowStart: string; windowEnd: string },
  timeZone: string,
): number {
  const local = isoToShopLocal(instant, timeZone);
  const minutes = minutesOf(local.slice(11, 16));
  const start = minutesOf(window.windowStart);
  const end = minutesOf(window.windowEnd);
  if (minutes >= start && minutes < end) return instant;
  const day = local.slice(0, 10);
  const target = minutes < start ? day : addDays(day, 1);
  return Date.parse(shopLocalToIso(`${target}T${window.windowStart}`, timeZone) as string);
}

/** When the sending window that contains `instant` closes (an instant inside the window). */
export function windowCloses(instant: number, window: { windowEnd: string }, timeZone: string): number {
  const day = dateIn(timeZone, instant);
  return Date.parse(shopLocalToIso(`${day}T${window.windowEnd}`, timeZone) as string);
}

/** The image sent with every message of a campaign: up to 5 MB, JPEG, PNG or WebP. */
export const CAMPAIGN_IMAGE_UPLOAD = {
  maxBytes: 5 * 1024 * 1024,
  tooLarge: CAMPAIGN_MESSAGES.imageTooLarge,
  notSupported: CAMPAIGN_MESSAGES.imageNotSupported,
} as const satisfies Upload;
