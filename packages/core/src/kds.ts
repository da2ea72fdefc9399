import { z } from './zod.ts';

/**
 * The kitchen display (KDS, issue 35): a screen per production sector (print station) that shows the
 * sector's production tickets as cards. A card IS the sector's print job of a production send (the
 * same row, the same exactly-once key as the printed ticket): a retried, replayed, merged or
 * transferred send never makes a second card, and a reloaded screen reads the same rows again.
 */

export const KDS_MESSAGES = {
  stationNotFound: 'Estação de produção não encontrada',
  stationWithoutPrinter:
    'Este setor não tem impressora: a tela da cozinha precisa de uma para imprimir quando ficar sem sinal',
  ticketNotFound: 'Pedido não encontrado nesta tela',
  lineNotFound: 'Item não encontrado neste pedido',
  nothingToRecall: 'Nenhum pedido pronto para recuperar',
  targets: 'O tempo de atraso deve ser maior que o de atenção',
} as const;

/** The shop's KDS settings: the colour targets and how long a silent screen waits for its printer. */
export const kdsSettingsSchema = z
  .object({
    /** Minutes after which a card turns yellow. */
    warnMinutes: z.number().int().min(1, 'Mínimo de 1 minuto').max(240, 'Máximo de 240 minutos'),
    /** Minutes after which a card turns red. */
    lateMinutes: z.number().int().min(1, 'Mínimo de 1 minuto').max(480, 'Máximo de 480 minutos'),
    /** A screen silent this long: its sector's tickets print on the sector's printer. */
    silenceSeconds: z.number().int().min(20, 'Mínimo de 20 segundos').max(900, 'Máximo de 900 segundos'),
  })
  .refine((v) => v.lateMinutes > v.warnMinutes, { message: KDS_MESSAGES.targets, path: ['lateMinutes'] });
export type KdsSettings = z.infer<typeof kdsSettingsSchema>;

export const KDS_DEFAULTS: KdsSettings = { warnMinutes: 10, lateMinutes: 20, silenceSeconds: 60 };

/** How often an open screen says it is alive (well under the shortest silence). */
export const KDS_HEARTBEAT_SECONDS = 10;

/** A production station (a print sector with a printer) and its screen's state. */
export const kdsStationSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** When a screen of this station last said it was alive (null: never opened). */
  screenSeenAt: z.string().nullable(),
  /** The screen is silent past the limit: the tickets go to the printer. */
  printing: z.boolean(),
});
export type KdsStation = z.infer<typeof kdsStationSchema>;

export const kdsItemSchema = z.object({
  quantity: z.number(),
  description: z.string(),
  variantName: z.string().nullable(),
  additionals: z.array(z.object({ name: z.string(), quantity: z.number() })),
  notes: z.string().nullable(),
});
export type KdsItem = z.infer<typeof kdsItemSchema>;

export const kdsTicketSchema = z.object({
  /** The print job's id: one card per production send and sector. */
  id: z.number(),
  title: z.string(),
  /** The ticket as printed (shown when the ticket has no items, such as a cancel ticket). */
  lines: z.array(z.string()),
  items: z.array(kdsItemSchema.extend({ ready: z.boolean() })),
  cancel: z.boolean(),
  createdAt: z.string(),
  /** Handed to the printer (the screen was silent): the kitchen has it on paper too. */
  printed: z.boolean(),
  readyAt: z.string().nullable(),
});
export type KdsTicket = z.infer<typeof kdsTicketSchema>;

/** GET /v1/kds/station/:id: the station, the shop's targets, its open tickets oldest first. */
export const kdsBoardSchema = z.object({
  station: kdsStationSchema,
  settings: kdsSettingsSchema,
  tickets: z.array(kdsTicketSchema),
  /** The last ticket bumped (what "Recuperar" brings back), if any. */
  lastReady: kdsTicketSchema.nullable(),
  now: z.string(),
});
export type KdsBoard = z.infer<typeof kdsBoardSchema>;

export const kdsStationsSchema = z.object({
  stations: z.array(kdsStationSchema),
  settings: kdsSettingsSchema,
});

/** POST /v1/kds/ticket/:id/ready: one line (its index) or the whole ticket. */
export const kdsBumpInputSchema = z.object({ line: z.number().int().min(0).optional() });

/** The colour of a card after `minutes` waiting. */
export function kdsTone(minutes: number, settings: KdsSettings): 'ok' | 'warn' | 'late' {
  if (minutes >= settings.lateMinutes) return 'late';
  if (minutes >= settings.warnMinutes) return 'warn';
  return 'ok';
}
