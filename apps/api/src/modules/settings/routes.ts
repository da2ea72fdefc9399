import { binaryFileSchema } from '@balcao/core/responses';
import { ALL, BACKOFFICE, PDV, STAFF, WRITE } from '@balcao/core/routes';
import {
  companySettingsInputSchema,
  companySettingsSchema,
  LOGO_UPLOAD,
  myDiscountLimitSchema,
  receiptShopSchema,
  systemSettingsInputSchema,
  systemSettingsSchema,
} from '@balcao/core/settings';
import {
  workingHoursInputSchema,
  workingHoursSettingsSchema,
  workingHoursStatusSchema,
} from '@balcao/core/workingHours';
import { z } from '@balcao/core/zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { idParam } from '../../lib/params.ts';
import { readImageUpload } from '../../lib/upload.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { storageFor } from '../storage/storage.ts';
import {
  findCompanySettings,
  findReceiptShop,
  isLogoFile,
  removeLogo,
  saveCompanySettings,
  setLogo,
} from './company.ts';
import { findDiscountLimit } from './discountLimits.ts';
import { findSystemSettings, saveSystemSettings, type TimeZoneChanged } from './system.ts';
import { findWorkingHours, findWorkingHoursStatus, saveWorkingHours } from './workingHours.ts';

const tags = ['settings'];

/**
 * Settings pages of the shop (issue 14): company (system-client), system preferences (system) and
 * working hours. The pages open to BACKOFFICE (read only for most); the company and working hours
 * are written by WRITE.settings (Administrador, Gerente), system preferences by WRITE.system
 * (Administrador). Every save tells the shop's sockets (`change` settings, and session when the
 * login answer changed).
 */
export function settingsRoutes(ctx: AppContext, timeZoneChanged: TimeZoneChanged): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);

    // ------------------------------------------------------------ company

    app.get(
      '/settings/company',
      {
        config: { access: BACKOFFICE },
        schema: { tags, summary: 'Company data (system-client)', response: { 200: companySettingsSchema } },
      },
      async (request) => findCompanySettings(db, sessionOf(request)),
    );

    app.put(
      '/settings/company',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary:
            'Save the company data, Pix key, receipt texts and flags (updatedAt: null on the first save)',
          body: companySettingsInputSchema,
          response: { 200: companySettingsSchema },
        },
      },
      async (request) => saveCompanySettings(ctx, sessionOf(request), request.body),
    );

    app.post(
      '/settings/company/logo',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'Upload the logo (multipart field "file": JPEG, PNG or WebP, up to 2 MB; stored as PNG)',
          response: { 200: companySettingsSchema },
        },
      },
      async (request, reply) => {
        const actor = sessionOf(request);
        const data = await readImageUpload(request, LOGO_UPLOAD);
        return reply.send(await setLogo(ctx, storage, actor, data));
      },
    );

    app.delete(
      '/settings/company/logo',
      {
        config: { access: WRITE.settings },
        schema: { tags, summary: 'Remove the logo', response: { 200: companySettingsSchema } },
      },
      async (request) => removeLogo(ctx, storage, sessionOf(request)),
    );

    // Public: <img> tags send no Bearer header. The 128-bit random name is the secret, and a new
    // upload gets a new name, so the file is cached for a year.
    app.get(
      '/settings/logo/:clientId/:file',
      {
        config: { access: 'public' },
        schema: {
          tags,
          params: z.object({
            clientId: idParam('Imagem não encontrada'),
            file: z.string().refine(isLogoFile, 'Imagem não encontrada'),
          }),
          response: { 200: { content: { 'image/png': { schema: binaryFileSchema } } } },
        },
      },
      async (request, reply) => {
        const { clientId, file } = request.params;
        const stored = await storage.get(`logo/${clientId}/${file}`);
        if (!stored) throw notFound('Imagem não encontrada');
        return reply
          .header('content-type', 'image/png')
          .header('content-length', stored.size)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .send(stored.stream);
      },
    );

    app.get(
      '/settings/receipt',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary:
            'What a receipt prints of the shop: name, document, phone, address, logo, header and footer',
          response: { 200: receiptShopSchema },
        },
      },
      async (request) => findReceiptShop(db, sessionOf(request)),
    );

    // ------------------------------------------------------------ system

    app.get(
      '/settings/system',
      {
        config: { access: BACKOFFICE },
        schema: { tags, summary: 'System preferences', response: { 200: systemSettingsSchema } },
      },
      async (request) => findSystemSettings(db, sessionOf(request)),
    );

    app.put(
      '/settings/system',
      {
        config: { access: WRITE.system },
        schema: {
          tags,
          summary: 'Save the system preferences (updatedAt: null on the first save)',
          body: systemSettingsInputSchema,
          response: { 200: systemSettingsSchema },
        },
      },
      async (request) => saveSystemSettings(ctx, sessionOf(request), request.body, timeZoneChanged),
    );

    app.get(
      '/settings/discount-limit/me',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary: "The session user's discount limit (hundredths of a percent); null for approvers",
          response: { 200: myDiscountLimitSchema },
        },
      },
      async (request) => findDiscountLimit(db, sessionOf(request)),
    );

    // ------------------------------------------------------------ working hours

    app.get(
      '/settings/working-hour',
      {
        config: { access: BACKOFFICE },
        schema: { tags, summary: 'Working hours', response: { 200: workingHoursSettingsSchema } },
      },
      async (request) => findWorkingHours(db, sessionOf(request)),
    );

    app.put(
      '/settings/working-hour',
      {
        config: { access: WRITE.settings },
        schema: {
          tags,
          summary: 'Save the working hours, exceptions and pause (updatedAt: null on the first save)',
          body: workingHoursInputSchema,
          response: { 200: workingHoursSettingsSchema },
        },
      },
      async (request) => saveWorkingHours(ctx, sessionOf(request), request.body),
    );

    app.get(
      '/settings/working-hour/status',
      {
        config: { access: ALL },
        schema: {
          tags,
          summary: 'Open or closed now and the next change (top bar, PDV warning)',
          response: { 200: workingHoursStatusSchema },
        },
      },
      async (request) => findWorkingHoursStatus(db, sessionOf(request)),
    );
  };
}
