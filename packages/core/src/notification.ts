import { z } from './zod.ts';

/** A notice from a manager to everyone of their shop (the client's socket channel). */
const ALERT_COLORS = ['success', 'info', 'warning', 'error'] as const;

export const notificationInputSchema = z.object({
  message: z.string().trim().min(1, 'A mensagem é obrigatória').max(500, 'Use no máximo 500 caracteres'),
  alertColor: z.enum(ALERT_COLORS).default('info'),
});
export type NotificationInput = z.input<typeof notificationInputSchema>;

export const notificationSentSchema = z.object({ sent: z.boolean() });
