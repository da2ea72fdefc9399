import { endpoint } from '../contract.ts';
import { idParam } from '../params.ts';
import { binaryFileSchema } from '../responses.ts';
import { ALL, BACKOFFICE, COUNTER, WRITE } from '../routes.ts';
import { scaleSettingsSchema } from '../scale/weighedLabel.ts';
import {
  companySettingsInputSchema,
  companySettingsSchema,
  LOGO_UPLOAD,
  myDiscountLimitSchema,
  receiptShopSchema,
  systemSettingsInputSchema,
  systemSettingsSchema,
} from '../settings.ts';
import {
  workingHoursInputSchema,
  workingHoursSettingsSchema,
  workingHoursStatusSchema,
} from '../workingHours.ts';
import { z } from '../zod.ts';

/** A stored logo's name: 128 random bits in hex, a PNG. */
const LOGO_FILE = /^[a-f0-9]{32}\.png$/;

/**
 * Settings pages of the shop (issue 14): company (system-client), system preferences (system) and
 * working hours. The pages open to BACKOFFICE (read only for most); the company and working hours
 * are written by WRITE.settings (Administrador, Gerente), system preferences by WRITE.system
 * (Administrador). Every save tells the shop's sockets (`change` settings, and session when the
 * login answer changed).
 */
export const settingsApi = {
  company: endpoint({
    method: 'GET',
    path: '/settings/company',
    resource: 'settings',
    access: BACKOFFICE,
    summary: 'Company data (system-client)',
    response: { 200: companySettingsSchema },
  }),
  saveCompany: endpoint({
    method: 'PUT',
    path: '/settings/company',
    resource: 'settings',
    access: WRITE.settings,
    summary: 'Save the company data, Pix key, receipt texts and flags (updatedAt: null on the first save)',
    body: companySettingsInputSchema,
    response: { 200: companySettingsSchema },
    changes: ['settings', 'session'],
  }),
  setLogo: endpoint({
    method: 'POST',
    path: '/settings/company/logo',
    resource: 'settings',
    access: WRITE.settings,
    summary: 'Upload the logo (multipart field "file": JPEG, PNG or WebP, up to 2 MB; stored as PNG)',
    response: { 200: companySettingsSchema },
    upload: LOGO_UPLOAD,
    changes: ['settings', 'session'],
  }),
  removeLogo: endpoint({
    method: 'DELETE',
    path: '/settings/company/logo',
    resource: 'settings',
    access: WRITE.settings,
    summary: 'Remove the logo',
    response: { 200: companySettingsSchema },
    changes: ['settings', 'session'],
  }),
  /**
   * Public: <img> tags send no Bearer header. The 128-bit random name is the secret, and a new
   * upload gets a new name, so the file is cached for a year.
   */
  logo: endpoint({
    method: 'GET',
    path: '/settings/logo/:clientId/:file',
    resource: 'settings',
    access: 'public',
    summary: "The shop's logo (receipts, the company page's preview)",
    params: z.object({
      clientId: idParam('Imagem não encontrada'),
      file: z.string().refine((file) => LOGO_FILE.test(file), 'Imagem não encontrada'),
    }),
    response: { 200: binaryFileSchema },
    file: 'png',
  }),
  receipt: endpoint({
    method: 'GET',
    path: '/settings/receipt',
    resource: 'settings',
    access: BACKOFFICE,
    summary: 'What a receipt prints of the shop: name, document, phone, address, logo, header and footer',
    response: { 200: receiptShopSchema },
  }),
  system: endpoint({
    method: 'GET',
    path: '/settings/system',
    resource: 'settings',
    access: BACKOFFICE,
    summary: 'System preferences',
    response: { 200: systemSettingsSchema },
  }),
  saveSystem: endpoint({
    method: 'PUT',
    path: '/settings/system',
    resource: 'settings',
    access: WRITE.system,
    summary: 'Save the system preferences (updatedAt: null on the first save)',
    body: systemSettingsInputSchema,
    response: { 200: systemSettingsSchema },
    changes: ['settings', 'stock', 'session'],
  }),
  myDiscountLimit: endpoint({
    method: 'GET',
    path: '/settings/discount-limit/me',
    resource: 'settings',
    access: COUNTER,
    summary: "The session user's discount limit (hundredths of a percent); null for approvers",
    response: { 200: myDiscountLimitSchema },
  }),
  workingHours: endpoint({
    method: 'GET',
    path: '/settings/working-hour',
    resource: 'settings',
    access: BACKOFFICE,
    summary: 'Working hours',
    response: { 200: workingHoursSettingsSchema },
  }),
  saveWorkingHours: endpoint({
    method: 'PUT',
    path: '/settings/working-hour',
    resource: 'settings',
    access: WRITE.settings,
    summary: 'Save the working hours, exceptions and pause (updatedAt: null on the first save)',
    body: workingHoursInputSchema,
    response: { 200: workingHoursSettingsSchema },
    changes: ['settings'],
  }),
  /** Issue 36: the weighed-item label layout; the PDV reads it to know a label and the scale's rounding. */
  scale: endpoint({
    method: 'GET',
    path: '/settings/scale',
    resource: 'settings',
    access: BACKOFFICE,
    summary: "The scale's weighed-item label layout (prefix 2, code length, weight or price) and rounding",
    response: { 200: scaleSettingsSchema },
  }),
  saveScale: endpoint({
    method: 'PUT',
    path: '/settings/scale',
    resource: 'settings',
    access: WRITE.system,
    summary: "Save the scale's label layout and rounding",
    body: scaleSettingsSchema,
    response: { 200: scaleSettingsSchema },
    changes: ['settings'],
  }),
  workingHoursStatus: endpoint({
    method: 'GET',
    path: '/settings/working-hour/status',
    resource: 'settings',
    access: ALL,
    summary: 'Open or closed now and the next change (top bar, PDV warning)',
    response: { 200: workingHoursStatusSchema },
  }),
} as const;
