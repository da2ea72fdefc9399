import { refSchema, timestampFields } from './responses.ts';
import { shippingRuleSetSchema } from './shipping.ts';
import { z } from './zod.ts';

/**
 * What login, revalidation (/user/me) and account creation answer (DESIGN.md). Kept apart from auth.ts,
 * whose input schemas are in the login bundle.
 */

/** The client's flags that switch screens on and off (comandas, stock, open-check). */
export const settingsChecklistSchema = z.object({
  saleCommand: z.boolean(),
  stockManagement: z.boolean(),
  checkIsOpen: z.boolean(),
});

export const sessionUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  active: z.boolean(),
  profilePhotoWhatsapp: z.string().nullable(),
  userType: refSchema,
  client: refSchema.extend({
    clientType: refSchema,
    timeZone: z.string(),
    /** The company logo (top bar, receipts); null without one. */
    logoUrl: z.string().nullable(),
  }),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** The client's WhatsApp (Evolution API) instance. */
export const whatsappInstanceSchema = z.object({
  id: z.number(),
  clientId: z.number(),
  instanceName: z.string(),
  /** Evolution API connection state: open, connecting or close. */
  state: z.string(),
  /** The number is connected (state open): what the shell shows for every user. */
  connected: z.boolean(),
  phone: z.string(),
  /** The connected number's profile photo (a WhatsApp CDN address), null when none. */
  profilePictureUrl: z.string().nullable(),
  ...timestampFields,
});

/**
 * A delivery rule set of the client (issue 15: the shipping module owns the rules; the session keeps
 * the first fields it always had: id, clientId, name, originZipCode, fixedPriceCents, freeAboveCents,
 * deliveryTimeMinutes, active).
 */
export const shippingSettingSchema = shippingRuleSetSchema;
export type ShippingSetting = z.infer<typeof shippingSettingSchema>;

/** The static Pix key and merchant data for the BR Code. */
const paymentGatewaySchema = z.object({
  id: z.number(),
  clientId: z.number(),
  provider: z.string(),
  pixKey: z.string(),
  merchantName: z.string(),
  merchantCity: z.string(),
  active: z.boolean(),
  ...timestampFields,
});

export const sessionPayloadSchema = z.object({
  user: sessionUserSchema,
  whatsappInstance: whatsappInstanceSchema.nullable(),
  shippingSettings: shippingSettingSchema.nullable(),
  paymentGateway: paymentGatewaySchema.nullable(),
  settingsChecklist: settingsChecklistSchema,
});
export type SessionPayload = z.infer<typeof sessionPayloadSchema>;

/** The login answer: the session payload and the bearer token. */
export const loginAnswerSchema = sessionPayloadSchema.extend({ token: z.string() });

/** The account creation answer: logged in as the new Administrador; `id` is the new client's. */
export const accountCreatedSchema = loginAnswerSchema.extend({ id: z.number() });
