import { endpoint } from '../contract.ts';
import { changesOf, changesQuerySchema } from '../offline.ts';
import { clientParams, idParam, idParams } from '../params.ts';
import {
  barcodeMatchSchema,
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
  weighedMatchSchema,
} from '../product.ts';
import { binaryFileSchema, csvFileSchema, deletedSchema } from '../responses.ts';
import { BACKOFFICE, PDV, STAFF, WRITE } from '../routes.ts';
import { z } from '../zod.ts';

/** `/product/barcode/:code`: a barcode or SKU as typed or scanned. */
export const barcodeParams = z.object({
  code: z.string().trim().min(1, 'Informe o código').max(60, 'Código muito longo'),
});

/** `/product/:id/image/:imageId` */
export const productImageParams = z.object({ id: idParam(), imageId: idParam() });

/** `/product-image/:clientId/:productId/:file`: a stored image's random name (anything else is 404). */
export const productImageFileParams = z.object({
  clientId: idParam('Imagem não encontrada'),
  productId: idParam('Imagem não encontrada'),
  file: z.string().regex(/^[a-f0-9]{32}-(display|thumb)\.webp$/, 'Imagem não encontrada'),
});

/** The new order of a product's images (the first is the cover). */
export const productImageOrderSchema = z.object({ imageIds: z.array(z.number().int().positive()).max(50) });

/** What a product write moves: the product lists and the category/brand usage counts. */
const PRODUCT_CHANGES = ['product', 'product-category', 'product-brand'] as const;

/**
 * /v1/product (issue 4). Reading is open to the staff, because the PDV searches and scans products
 * (drivers excluded); writing belongs to the catalog roles (ROUTES.md: 1, 2, 6).
 */
export const productApi = {
  list: endpoint({
    method: 'GET',
    path: '/product/client/:clientId',
    resource: 'product',
    access: STAFF,
    summary: "The client's products: search (name, SKU, barcode), filters, sort and pages",
    params: clientParams,
    query: productListQuerySchema,
    response: { 200: productPageSchema },
  }),
  changes: endpoint({
    method: 'GET',
    path: '/product/changes',
    resource: 'product',
    access: PDV,
    summary:
      "The PDV's local catalog (issue 21): whole products changed since a time, paged by id, and the ids deleted since",
    query: changesQuerySchema,
    response: { 200: changesOf(productSchema) },
  }),
  barcode: endpoint({
    method: 'GET',
    path: '/product/barcode/:code',
    resource: 'product',
    access: STAFF,
    summary: 'PDV scanner: the product or the variant (with its product) of a barcode, or a SKU',
    params: barcodeParams,
    response: { 200: barcodeMatchSchema },
  }),
  weighed: endpoint({
    method: 'GET',
    path: '/product/weighed/:code',
    resource: 'product',
    access: BACKOFFICE,
    summary:
      "PDV scanner (issue 36): a weighed-item label (EAN-13, prefix 2) read with the shop's layout: the product and the line's weight and amount",
    params: barcodeParams,
    response: { 200: weighedMatchSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: '/product/:id',
    resource: 'product',
    access: STAFF,
    summary: 'One product with its variants, images and add-on groups',
    params: idParams,
    response: { 200: productSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: '/product',
    resource: 'product',
    access: WRITE.catalog,
    summary: 'Create a product (with its grid of variants when given)',
    body: productInputSchema,
    response: { 201: productSchema },
    changes: PRODUCT_CHANGES,
  }),
  update: endpoint({
    method: 'PUT',
    path: '/product/:id',
    resource: 'product',
    access: WRITE.catalog,
    summary: 'Update a product: updatedAt is required (409 when stale)',
    params: idParams,
    body: productUpdateSchema,
    response: { 200: productSchema },
    changes: PRODUCT_CHANGES,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/product/:id',
    resource: 'product',
    access: WRITE.catalog,
    summary: 'Delete a product and its image files',
    params: idParams,
    response: { 200: deletedSchema },
    changes: PRODUCT_CHANGES,
  }),
  setGrid: endpoint({
    method: 'PUT',
    path: '/product/:id/grid',
    resource: 'product',
    access: WRITE.catalog,
    summary: 'Generate the variants from colours and sizes; existing combinations keep their data',
    params: idParams,
    body: productGridInputSchema,
    response: { 200: productSchema },
    changes: ['product'],
  }),
  clearGrid: endpoint({
    method: 'DELETE',
    path: '/product/:id/grid',
    resource: 'product',
    access: WRITE.catalog,
    summary: "Remove the product's grid (its variants)",
    params: idParams,
    response: { 200: productSchema },
    changes: ['product'],
  }),
  updateVariant: endpoint({
    method: 'PUT',
    path: '/product-grid/:id',
    resource: 'product',
    access: WRITE.catalog,
    summary: "One variant's SKU, barcode, price and stock",
    params: idParams,
    body: productVariantUpdateSchema,
    response: { 200: productVariantSchema },
    changes: ['product'],
  }),
  addImage: endpoint({
    method: 'POST',
    path: '/product/:id/image',
    resource: 'product',
    access: WRITE.catalog,
    summary: 'Upload one image (multipart field "file": JPEG, PNG or WebP, up to 5 MB)',
    params: idParams,
    response: { 201: productImageSchema },
    upload: PRODUCT_IMAGE_UPLOAD,
    changes: ['product'],
  }),
  removeImage: endpoint({
    method: 'DELETE',
    path: '/product/:id/image/:imageId',
    resource: 'product',
    access: WRITE.catalog,
    summary: "Delete one image; answers the product's remaining images",
    params: productImageParams,
    response: { 200: z.array(productImageSchema) },
    changes: ['product'],
  }),
  reorderImages: endpoint({
    method: 'PUT',
    path: '/product/:id/image-order',
    resource: 'product',
    access: WRITE.catalog,
    summary: 'Reorder the images; the first is the cover',
    params: idParams,
    body: productImageOrderSchema,
    response: { 200: z.array(productImageSchema) },
    changes: ['product'],
  }),
  /**
   * Public: <img> tags send no Bearer header. The 128-bit random name is the secret, and a new
   * upload gets a new name, so the files are cached for a year.
   */
  imageFile: endpoint({
    method: 'GET',
    path: '/product-image/:clientId/:productId/:file',
    resource: 'product',
    access: 'public',
    summary: 'A stored product image (WebP), public and cached for a year',
    params: productImageFileParams,
    response: { 200: binaryFileSchema },
    file: 'webp',
  }),
  export: endpoint({
    method: 'GET',
    path: '/product/client/:clientId/export',
    resource: 'product',
    access: BACKOFFICE,
    summary: 'CSV of the filtered list (semicolon separated, decimal comma, UTF-8 with BOM)',
    params: clientParams,
    query: productListQuerySchema,
    response: { 200: csvFileSchema },
    file: 'csv',
  }),
  import: endpoint({
    method: 'POST',
    path: '/product/import',
    resource: 'product',
    access: WRITE.catalog,
    summary:
      'CSV import. dryRun=true checks every line and answers a preview with per-line errors. dryRun=false writes all lines in one transaction, or nothing (422) when a line is invalid, unless skipInvalid. With Accept: application/x-ndjson the write streams progress lines.',
    body: productImportInputSchema,
    response: { 200: importResultSchema },
    stream: 'ndjson',
    bodyLimit: 20 * 1024 * 1024,
    changes: PRODUCT_CHANGES,
  }),
} as const;
