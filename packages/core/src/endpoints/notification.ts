import { endpoint } from '../contract.ts';
import { notificationInputSchema, notificationSentSchema } from '../notification.ts';
import { WRITE } from '../routes.ts';

/** A notice from a manager to everyone of their shop, through the client's socket channel. */
export const notificationApi = {
  send: endpoint({
    method: 'POST',
    path: '/notification',
    resource: 'notification',
    access: WRITE.settings,
    summary: "Send a notice to the client's channel",
    body: notificationInputSchema,
    response: { 200: notificationSentSchema },
    changes: [],
  }),
} as const;
