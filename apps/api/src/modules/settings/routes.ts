import { settingsApi } from '@balcao/core/endpoints/settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { route } from '../../lib/endpoint.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { storageFor } from '../storage/storage.ts';
import { findCompanySettings, findReceiptShop, removeLogo, saveCompanySettings, setLogo } from './company.ts';
import { findDiscountLimit } from './discountLimits.ts';
import { findScaleSettings, saveScaleSettings } from './scale.ts';
import {
  type CouvertChanged,
  findSystemSettings,
  saveSystemSettings,
  type TimeZoneChanged,
} from './system.ts';
import { findWorkingHours, findWorkingHoursStatus, saveWorkingHours } from './workingHours.ts';

/** Settings pages of the shop (issue 14): the handlers of `settingsApi` (core declares the endpoints). */
export function settingsRoutes(
  ctx: AppContext,
  timeZoneChanged: TimeZoneChanged,
  couvertChanged?: CouvertChanged,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);

    // ------------------------------------------------------------ company

    route(app, settingsApi.company, (request) => findCompanySettings(db, sessionOf(request)));

    route(app, settingsApi.saveCompany, (request) =>
      saveCompanySettings(ctx, sessionOf(request), request.body),
    );

    route(app, settingsApi.setLogo, (request) => setLogo(ctx, storage, sessionOf(request), request.upload));

    route(app, settingsApi.removeLogo, (request) => removeLogo(ctx, storage, sessionOf(request)));

    route(app, settingsApi.logo, async (request, reply) => {
      const { clientId, file } = request.params;
      const stored = await storage.get(`logo/${clientId}/${file}`);
      if (!stored) throw notFound('Imagem não encontrada');
      return reply
        .header('content-type', 'image/png')
        .header('content-length', stored.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(stored.stream);
    });

    route(app, settingsApi.receipt, (request) => findReceiptShop(db, sessionOf(request)));

    // ------------------------------------------------------------ system

    route(app, settingsApi.system, (request) => findSystemSettings(db, sessionOf(request)));

    route(app, settingsApi.saveSystem, (request) =>
      saveSystemSettings(ctx, sessionOf(request), request.body, timeZoneChanged, couvertChanged),
    );

    route(app, settingsApi.myDiscountLimit, (request) => findDiscountLimit(db, sessionOf(request)));

    // ------------------------------------------------------------ working hours

    route(app, settingsApi.workingHours, (request) => findWorkingHours(db, sessionOf(request)));

    route(app, settingsApi.saveWorkingHours, (request) =>
      saveWorkingHours(ctx, sessionOf(request), request.body),
    );

    // ------------------------------------------------------------ scale (issue 36)

    route(app, settingsApi.scale, (request) => findScaleSettings(db, sessionOf(request)));

    route(app, settingsApi.saveScale, (request) => saveScaleSettings(ctx, sessionOf(request), request.body));

    route(app, settingsApi.workingHoursStatus, (request) => findWorkingHoursStatus(db, sessionOf(request)));
  };
}
