import { createAccountInputSchema } from '../auth.ts';
import { endpoint } from '../contract.ts';
import { clientParams } from '../params.ts';
import { ALL } from '../routes.ts';
import { accountCreatedSchema, settingsChecklistSchema, whatsappInstanceSchema } from '../session.ts';

/** Sign-up (public) and what the shell loads about the account (its settings checklist, WhatsApp). */
export const accountApi = {
  create: endpoint({
    method: 'POST',
    path: '/system-client',
    resource: 'account',
    access: 'public',
    summary: 'Create an account: the company and its Administrador, who is logged in',
    body: createAccountInputSchema,
    response: { 201: accountCreatedSchema },
    changes: [],
  }),
  settingsChecklist: endpoint({
    method: 'GET',
    path: '/settings-checklist/client/:clientId',
    resource: 'settings',
    access: ALL,
    summary: 'What of the settings the shop has done yet (the home checklist)',
    params: clientParams,
    response: { 200: settingsChecklistSchema },
  }),
  whatsappInstance: endpoint({
    method: 'GET',
    path: '/whatsapp-instance/client/:clientId',
    resource: 'settings',
    // The spec's shell loads it after login for every user: connected or not, number, photo (issue 31).
    access: ALL,
    summary: "The client's WhatsApp instance (never its key or webhook token)",
    params: clientParams,
    response: { 200: whatsappInstanceSchema },
  }),
} as const;
