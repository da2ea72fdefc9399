import { endpoint } from '../contract.ts';
import { binaryFileSchema } from '../responses.ts';
import { BACKOFFICE, WRITE } from '../routes.ts';
import { z } from '../zod.ts';

/** Asking for and canceling a deletion: the Administrador (WRITE.system). */
const ADMIN_ONLY = WRITE.system;

/** Days between the Administrador's request and the shop's deletion (cancelable meanwhile). */
export const SHOP_DELETION_GRACE_DAYS = 7;

export const SHOP_DELETION_MESSAGES = {
  wrongPassword: 'Senha incorreta: a exclusão não foi pedida',
  alreadyRequested: 'A exclusão da loja já foi pedida',
  notRequested: 'Nenhuma exclusão da loja foi pedida',
} as const;

export const shopDeletionInputSchema = z.object({
  password: z.string().min(1, 'Digite sua senha para confirmar'),
});

/** The pending deletion: when it was asked and when it happens (null: none asked). */
export const shopDeletionSchema = z.object({
  requestedAt: z.string().nullable(),
  dueAt: z.string().nullable(),
});
export type ShopDeletion = z.infer<typeof shopDeletionSchema>;

/**
 * /v1/shop-export (issue 37): the shop's whole data as a ZIP (every table as CSV, the uploaded files,
 * a README of the columns), for the Administrador only. `npm run import-shop -- FILE` reads it back.
 */
export const shopExportApi = {
  download: endpoint({
    method: 'GET',
    path: '/shop-export',
    resource: 'settings',
    tag: 'shop-export',
    // The system page's readers reach the route; the handler lets only WRITE.system (Administrador) export.
    access: BACKOFFICE,
    summary:
      "Administrador only (WRITE.system, 403 otherwise): every table of the caller's shop as CSV, its uploaded files and a README, as one ZIP streamed with constant memory",
    response: { 200: binaryFileSchema },
    file: 'binary',
  }),
  deletion: endpoint({
    method: 'GET',
    path: '/shop-export/deletion',
    resource: 'settings',
    tag: 'shop-export',
    access: BACKOFFICE,
    summary: "The shop's pending deletion (LGPD eliminação), or nulls (the system page's readers)",
    response: { 200: shopDeletionSchema },
  }),
  requestDeletion: endpoint({
    method: 'POST',
    path: '/shop-export/deletion',
    resource: 'settings',
    tag: 'shop-export',
    access: ADMIN_ONLY,
    summary: `Ask for the shop's deletion, confirmed with the Administrador's password: every row and file goes after ${SHOP_DELETION_GRACE_DAYS} days unless canceled`,
    body: shopDeletionInputSchema,
    response: { 202: shopDeletionSchema },
    changes: ['settings'],
  }),
  cancelDeletion: endpoint({
    method: 'DELETE',
    path: '/shop-export/deletion',
    resource: 'settings',
    tag: 'shop-export',
    access: ADMIN_ONLY,
    summary: "Cancel the shop's pending deletion",
    response: { 200: shopDeletionSchema },
    changes: ['settings'],
  }),
} as const;
