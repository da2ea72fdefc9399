import { Readable } from 'node:stream';
import { productApi } from '@balcao/core/endpoints/product';
import type { ImportResult } from '@balcao/core/product';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError, errorBody, notFound } from '../../errors.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { storageFor } from '../storage/storage.ts';
import { productChanges } from './changes.ts';
import {
  applyImport,
  csvHeader,
  csvLines,
  type ExportedFiscalReader,
  type ImportedFiscalWriter,
  importResult,
  parseProductCsv,
  planImport,
  withFiscalFields,
} from './csv.ts';
import { findByCode, findProduct } from './find.ts';
import { clearGrid, setGrid, updateVariant } from './grid.ts';
import { addImage, deleteImage, removeImageFiles, reorderImages } from './images.ts';
import { eachProduct, listProducts } from './list.ts';
import { createProduct, deleteProduct, updateProduct } from './service.ts';
import { findByScaleLabel } from './weighed.ts';

/** 422 of an import that wrote nothing, with the per-line result so the screen can show the errors. */
function refuseImport(reply: FastifyReply, message: string, result: ImportResult) {
  return reply.status(422).send({ ...errorBody(422, message), result });
}

/** Products (issue 4): the handlers of `productApi` (core declares the endpoints and their access). */
export function productRoutes(
  ctx: AppContext,
  /** Issue 32: keeps the NFC-e columns of an import (the fiscal module's, given at wiring). */
  writeFiscal?: ImportedFiscalWriter,
  /** Issue 32: the products' own NFC-e fields for the export's columns (the fiscal module's). */
  readFiscal?: ExportedFiscalReader,
): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);

    route(app, productApi.list, (request) =>
      listProducts(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    route(app, productApi.changes, (request) => productChanges(db, sessionOf(request), request.query));

    route(app, productApi.barcode, (request) => findByCode(db, sessionOf(request), request.params.code));

    route(app, productApi.weighed, (request) =>
      findByScaleLabel(db, sessionOf(request), request.params.code),
    );

    route(app, productApi.get, (request) => findProduct(db, sessionOf(request), request.params.id));

    route(app, productApi.create, (request) => createProduct(db, sessionOf(request), request.body));

    route(app, productApi.update, (request) =>
      updateProduct(db, sessionOf(request), request.params.id, request.body),
    );

    route(app, productApi.remove, async (request) => {
      const { id, imageKeys } = await deleteProduct(db, sessionOf(request), request.params.id);
      for (const key of imageKeys) await removeImageFiles(storage, key);
      return { id };
    });

    // ------------------------------------------------------------ grid (variants)

    route(app, productApi.setGrid, (request) =>
      setGrid(db, sessionOf(request), request.params.id, request.body),
    );

    route(app, productApi.clearGrid, (request) => clearGrid(db, sessionOf(request), request.params.id));

    route(app, productApi.updateVariant, (request) =>
      updateVariant(db, sessionOf(request), request.params.id, request.body),
    );

    // ------------------------------------------------------------ images

    route(app, productApi.addImage, (request) =>
      addImage(db, storage, sessionOf(request), request.params.id, request.upload),
    );

    route(app, productApi.removeImage, (request) =>
      deleteImage(db, storage, sessionOf(request), request.params.id, request.params.imageId),
    );

    route(app, productApi.reorderImages, (request) =>
      reorderImages(db, sessionOf(request), request.params.id, request.body.imageIds),
    );

    route(app, productApi.imageFile, async (request, reply) => {
      const { clientId, productId, file } = request.params;
      const stored = await storage.get(`product/${clientId}/${productId}/${file}`);
      if (!stored) throw notFound('Imagem não encontrada');
      return reply
        .header('content-type', 'image/webp')
        .header('content-length', stored.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(stored.stream);
    });

    // ------------------------------------------------------------ CSV

    route(app, productApi.export, async (request, reply) => {
      const actor = assertOwnClient(request, request.params.clientId);
      const rows = eachProduct(db, actor, request.query);
      return sendCsvStream(reply, 'produtos', {
        today: await shopToday(db, actor.clientId),
        header: csvHeader(Boolean(readFiscal)),
        rows: readFiscal ? withFiscalFields(rows, (ids) => readFiscal(db, actor.clientId, ids)) : rows,
        lines: (batch) => csvLines(batch, Boolean(readFiscal)),
      });
    });

    route(app, productApi.import, async (request, reply) => {
      const actor = sessionOf(request);
      const { csv, dryRun, skipInvalid } = request.body;
      const parsed = parseProductCsv(csv);
      const plan = await planImport(db, actor, parsed);
      const options = { dryRun, skipInvalid };
      if (parsed.fileError) return refuseImport(reply, parsed.fileError, importResult(plan, options));
      if (dryRun) return importResult(plan, options);
      if (plan.errors.length > 0 && !skipInvalid)
        return refuseImport(
          reply,
          `Nada foi importado: ${plan.invalidLines} ${plan.invalidLines === 1 ? 'linha tem erro' : 'linhas têm erros'}. Corrija o arquivo ou importe pulando as linhas com erro.`,
          importResult(plan, options),
        );

      const wantsStream = (request.headers.accept ?? '').includes('application/x-ndjson');
      if (!wantsStream)
        return importResult(plan, options, await applyImport(db, actor, plan, undefined, writeFiscal));

      // Progress as NDJSON lines, then the result; the transaction still writes all or nothing.
      const stream = new Readable({ read() {} });
      const write = (event: unknown) => stream.push(`${JSON.stringify(event)}\n`);
      write({ type: 'progress', done: 0, total: plan.planned.length });
      applyImport(db, actor, plan, (done, total) => write({ type: 'progress', done, total }), writeFiscal)
        .then((written) => write({ type: 'result', result: importResult(plan, options, written) }))
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'product import failed');
          write({
            type: 'error',
            message:
              error instanceof AppError
                ? error.message
                : 'A importação falhou e nada foi gravado. Tente novamente.',
          });
        })
        .finally(() => stream.push(null));
      return reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(stream);
    });
  };
}
