import { Readable } from 'node:stream';
import { changesOf, changesQuerySchema } from '@balcao/core/offline';
import {
  barcodeMatchSchema,
  type ImportResult,
  importResultSchema,
  PRODUCT_IMAGE_UPLOAD,
  productGridInputSchema,
  productImageSchema,
  productImportInputSchema,
  productInputSchema,
  productListQuerySchema,
  productPageSchema,
  productSchema,
  productUpdateSchema,
  productVariantSchema,
  productVariantUpdateSchema,
} from '@balcao/core/product';
import { binaryFileSchema, csvFileSchema, deletedSchema, ndjsonSchema } from '@balcao/core/responses';
import { BACKOFFICE, PDV, STAFF, WRITE } from '@balcao/core/routes';
import { z } from '@balcao/core/zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError, errorBody, notFound } from '../../errors.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { clientParams, idParam, idParams } from '../../lib/params.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { readImageUpload } from '../../lib/upload.ts';
import { assertOwnClient, sessionOf } from '../../plugins/auth.ts';
import { storageFor } from '../storage/storage.ts';
import { productChanges } from './changes.ts';
import { applyImport, csvHeader, csvLines, importResult, parseProductCsv, planImport } from './csv.ts';
import { findByCode, findProduct } from './find.ts';
import { clearGrid, setGrid, updateVariant } from './grid.ts';
import { addImage, deleteImage, removeImageFiles, reorderImages } from './images.ts';
import { eachProduct, listProducts } from './list.ts';
import { createProduct, deleteProduct, updateProduct } from './service.ts';

/** 422 of an import that wrote nothing, with the per-line result so the screen can show the errors. */
function refuseImport(reply: FastifyReply, message: string, result: ImportResult) {
  return reply.status(422).send({ ...errorBody(422, message), result });
}

const imageParams = z.object({ id: idParam(), imageId: idParam() });

const imageFileParams = z.object({
  clientId: idParam('Imagem não encontrada'),
  productId: idParam('Imagem não encontrada'),
  file: z.string().regex(/^[a-f0-9]{32}-(display|thumb)\.webp$/, 'Imagem não encontrada'),
});

/**
 * Products (issue 4). Reading is open to the staff, because the PDV searches and scans products
 * (drivers excluded); writing belongs to the catalog roles (ROUTES.md: 1, 2, 6).
 */
export function productRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;
    const storage = storageFor(ctx.config);
    const tags = ['product'];

    app.get(
      '/product/client/:clientId',
      {
        config: { access: STAFF },
        schema: {
          tags,
          params: clientParams,
          querystring: productListQuerySchema,
          response: { 200: productPageSchema },
        },
      },
      async (request) => listProducts(db, assertOwnClient(request, request.params.clientId), request.query),
    );

    app.get(
      '/product/changes',
      {
        config: { access: PDV },
        schema: {
          tags,
          summary:
            "The PDV's local catalog (issue 21): whole products changed since a time, paged by id, and the ids deleted since",
          querystring: changesQuerySchema,
          response: { 200: changesOf(productSchema) },
        },
      },
      async (request) => productChanges(db, sessionOf(request), request.query),
    );

    app.get(
      '/product/barcode/:code',
      {
        config: { access: STAFF },
        schema: {
          tags,
          summary: 'PDV scanner: the product or the variant (with its product) of a barcode, or a SKU',
          params: z.object({
            code: z.string().trim().min(1, 'Informe o código').max(60, 'Código muito longo'),
          }),
          response: { 200: barcodeMatchSchema },
        },
      },
      async (request) => findByCode(db, sessionOf(request), request.params.code),
    );

    app.get(
      '/product/:id',
      { config: { access: STAFF }, schema: { tags, params: idParams, response: { 200: productSchema } } },
      async (request) => findProduct(db, sessionOf(request), request.params.id),
    );

    app.post(
      '/product',
      {
        config: { access: WRITE.catalog },
        schema: { tags, body: productInputSchema, response: { 201: productSchema } },
      },
      async (request, reply) =>
        reply.status(201).send(await createProduct(db, sessionOf(request), request.body)),
    );

    app.put(
      '/product/:id',
      {
        config: { access: WRITE.catalog },
        schema: { tags, params: idParams, body: productUpdateSchema, response: { 200: productSchema } },
      },
      async (request) => updateProduct(db, sessionOf(request), request.params.id, request.body),
    );

    app.delete(
      '/product/:id',
      {
        config: { access: WRITE.catalog },
        schema: { tags, params: idParams, response: { 200: deletedSchema } },
      },
      async (request) => {
        const { id, imageKeys } = await deleteProduct(db, sessionOf(request), request.params.id);
        for (const key of imageKeys) await removeImageFiles(storage, key);
        return { id };
      },
    );

    // ------------------------------------------------------------ grid (variants)

    app.put(
      '/product/:id/grid',
      {
        config: { access: WRITE.catalog },
        schema: {
          tags,
          summary: 'Generate the variants from colours and sizes; existing combinations keep their data',
          params: idParams,
          body: productGridInputSchema,
          response: { 200: productSchema },
        },
      },
      async (request) => setGrid(db, sessionOf(request), request.params.id, request.body),
    );

    app.delete(
      '/product/:id/grid',
      {
        config: { access: WRITE.catalog },
        schema: { tags, params: idParams, response: { 200: productSchema } },
      },
      async (request) => clearGrid(db, sessionOf(request), request.params.id),
    );

    app.put(
      '/product-grid/:id',
      {
        config: { access: WRITE.catalog },
        schema: {
          tags,
          summary: "One variant's SKU, barcode, price and stock",
          params: idParams,
          body: productVariantUpdateSchema,
          response: { 200: productVariantSchema },
        },
      },
      async (request) => updateVariant(db, sessionOf(request), request.params.id, request.body),
    );

    // ------------------------------------------------------------ images

    app.post(
      '/product/:id/image',
      {
        config: { access: WRITE.catalog },
        schema: {
          tags,
          summary: 'Upload one image (multipart field "file": JPEG, PNG or WebP, up to 5 MB)',
          params: idParams,
          response: { 201: productImageSchema },
        },
      },
      async (request, reply) => {
        const actor = sessionOf(request);
        const data = await readImageUpload(request, PRODUCT_IMAGE_UPLOAD);
        return reply.status(201).send(await addImage(db, storage, actor, request.params.id, data));
      },
    );

    app.delete(
      '/product/:id/image/:imageId',
      {
        config: { access: WRITE.catalog },
        schema: { tags, params: imageParams, response: { 200: z.array(productImageSchema) } },
      },
      async (request) =>
        deleteImage(db, storage, sessionOf(request), request.params.id, request.params.imageId),
    );

    app.put(
      '/product/:id/image-order',
      {
        config: { access: WRITE.catalog },
        schema: {
          tags,
          summary: 'Reorder the images; the first is the cover',
          params: idParams,
          body: z.object({ imageIds: z.array(z.number().int().positive()).max(50) }),
          response: { 200: z.array(productImageSchema) },
        },
      },
      async (request) => reorderImages(db, sessionOf(request), request.params.id, request.body.imageIds),
    );

    // Public: <img> tags send no Bearer header. The 128-bit random name is the secret, and a new
    // upload gets a new name, so the files are cached for a year.
    app.get(
      '/product-image/:clientId/:productId/:file',
      {
        config: { access: 'public' },
        schema: {
          tags,
          params: imageFileParams,
          response: { 200: { content: { 'image/webp': { schema: binaryFileSchema } } } },
        },
      },
      async (request, reply) => {
        const { clientId, productId, file } = request.params;
        const stored = await storage.get(`product/${clientId}/${productId}/${file}`);
        if (!stored) throw notFound('Imagem não encontrada');
        return reply
          .header('content-type', 'image/webp')
          .header('content-length', stored.size)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .send(stored.stream);
      },
    );

    // ------------------------------------------------------------ CSV

    app.get(
      '/product/client/:clientId/export',
      {
        config: { access: BACKOFFICE },
        schema: {
          tags,
          summary: 'CSV of the filtered list (semicolon separated, decimal comma, UTF-8 with BOM)',
          params: clientParams,
          querystring: productListQuerySchema,
          response: { 200: { content: { 'text/csv': { schema: csvFileSchema } } } },
        },
      },
      async (request, reply) => {
        const actor = assertOwnClient(request, request.params.clientId);
        return sendCsvStream(reply, 'produtos', {
          today: await shopToday(db, actor.clientId),
          header: csvHeader(),
          rows: eachProduct(db, actor, request.query),
          lines: csvLines,
        });
      },
    );

    app.post(
      '/product/import',
      {
        config: { access: WRITE.catalog },
        bodyLimit: 20 * 1024 * 1024,
        schema: {
          tags,
          summary:
            'CSV import. dryRun=true checks every line and answers a preview with per-line errors. dryRun=false writes all lines in one transaction, or nothing (422) when a line is invalid, unless skipInvalid. With Accept: application/x-ndjson the write streams progress lines.',
          body: productImportInputSchema,
          response: {
            200: {
              content: {
                'application/json': { schema: importResultSchema },
                'application/x-ndjson': { schema: ndjsonSchema },
              },
            },
          },
        },
      },
      async (request, reply) => {
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
        if (!wantsStream) return importResult(plan, options, await applyImport(db, actor, plan));

        // Progress as NDJSON lines, then the result; the transaction still writes all or nothing.
        const stream = new Readable({ read() {} });
        const write = (event: unknown) => stream.push(`${JSON.stringify(event)}\n`);
        write({ type: 'progress', done: 0, total: plan.planned.length });
        applyImport(db, actor, plan, (done, total) => write({ type: 'progress', done, total }))
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
      },
    );
  };
}
