import { endpoint } from '../contract.ts';
import { okSchema } from '../responses.ts';
import { BACKOFFICE, WRITE } from '../routes.ts';
import {
  whatsappConnectInputSchema,
  whatsappConnectSchema,
  whatsappInstanceViewSchema,
  whatsappOptOutInputSchema,
  whatsappOptOutSchema,
  whatsappTestInputSchema,
  whatsappTestSentSchema,
} from '../whatsapp.ts';
import { z } from '../zod.ts';

/** What Evolution posts to the webhook: an event of an instance (other fields kept, never read). */
export const whatsappWebhookSchema = z
  .object({
    event: z.unknown(),
    instance: z.unknown(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

/**
 * /v1/whatsapp: the shop's Evolution instance (settings page: BACKOFFICE reads, WRITE.settings
 * changes it), the opt-out list (WRITE.campaigns) and Evolution's webhook (public, checked by token).
 */
export const whatsappApi = {
  instance: endpoint({
    method: 'GET',
    path: '/whatsapp/instance',
    resource: 'whatsapp',
    access: BACKOFFICE,
    summary: "The shop's WhatsApp instance",
    response: { 200: whatsappInstanceViewSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/whatsapp/instance',
    resource: 'whatsapp',
    access: WRITE.settings,
    summary: 'Create the instance in Evolution (first QR code)',
    response: { 201: whatsappConnectSchema },
    changes: ['whatsapp'],
  }),
  connect: endpoint({
    method: 'POST',
    path: '/whatsapp/instance/connect',
    resource: 'whatsapp',
    access: WRITE.settings,
    summary: 'A fresh QR code, or a pairing code for `number`; qr is null once connected',
    body: whatsappConnectInputSchema,
    response: { 200: whatsappConnectSchema },
    changes: ['whatsapp'],
  }),
  logout: endpoint({
    method: 'POST',
    path: '/whatsapp/instance/logout',
    resource: 'whatsapp',
    access: WRITE.settings,
    summary: 'Disconnect the number (the instance stays)',
    response: { 200: whatsappInstanceViewSchema },
    changes: ['whatsapp'],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/whatsapp/instance',
    resource: 'whatsapp',
    access: WRITE.settings,
    summary: 'Delete the instance in Evolution',
    response: { 200: whatsappInstanceViewSchema },
    changes: ['whatsapp'],
  }),
  test: endpoint({
    method: 'POST',
    path: '/whatsapp/instance/test',
    resource: 'whatsapp',
    access: WRITE.settings,
    summary: 'Send a test message',
    body: whatsappTestInputSchema,
    response: { 200: whatsappTestSentSchema },
  }),
  optOut: endpoint({
    method: 'POST',
    path: '/whatsapp/opt-out',
    resource: 'whatsapp',
    access: WRITE.campaigns,
    summary: 'Mark a number as never to be messaged',
    body: whatsappOptOutInputSchema,
    response: { 200: whatsappOptOutSchema },
    changes: ['campaign'],
  }),
  optIn: endpoint({
    method: 'DELETE',
    path: '/whatsapp/opt-out',
    resource: 'whatsapp',
    access: WRITE.campaigns,
    summary: 'Take a number off the opt-out list',
    body: whatsappOptOutInputSchema,
    response: { 200: whatsappOptOutSchema },
    changes: ['campaign'],
  }),
  webhook: endpoint({
    method: 'POST',
    path: '/whatsapp/webhook/:instanceName',
    resource: 'whatsapp',
    access: 'public',
    summary: "Evolution's webhook (header x-balcao-webhook-token); 401 on a wrong token",
    params: z.object({ instanceName: z.string().min(1).max(100) }),
    body: whatsappWebhookSchema,
    response: { 200: okSchema },
    changes: ['whatsapp', 'campaign'],
    bodyLimit: 10 * 1024 * 1024,
  }),
} as const;
