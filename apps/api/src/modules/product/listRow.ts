import {
  isLowStock,
  marginPercent,
  type ProductListItem,
  type ProductType,
  type ProductUnit,
} from '@balcao/core/product';
import { sql } from 'drizzle-orm';
import { num } from '../../lib/pg.ts';
import { brandService } from '../product-brand/service.ts';
import { categoryService } from '../product-category/service.ts';
import { imageUrls } from './imageUrls.ts';
import { products } from './schema.ts';

/** The columns of a product list row and their mapping to the answer (list, export, one product). */

const coverKey = sql<string | null>`(${sql.raw(
  'select i.storage_key from product_images i where i.product_id = "products".id order by i.position, i.id limit 1',
)})`;
const variantCount = sql<number>`(${sql.raw(
  'select count(*)::int from product_variants v where v.product_id = "products".id',
)})`;

export const listColumns = {
  id: products.id,
  name: products.name,
  sku: products.sku,
  barcode: products.barcode,
  productType: products.productType,
  unit: products.unit,
  salePriceCents: products.salePriceCents,
  costPriceCents: products.costPriceCents,
  categoryId: products.categoryId,
  categoryName: categoryService.nameOf(products.categoryId),
  brandId: products.brandId,
  brandName: brandService.nameOf(products.brandId),
  active: products.active,
  stockControl: products.stockControl,
  stock: products.stock,
  minStock: products.minStock,
  variantCount,
  coverKey,
  createdAt: products.createdAt,
  updatedAt: products.updatedAt,
};

/** A list row plus what only the whole product shows (detail, barcode lookup, CSV export). */
export const wholeColumns = {
  ...listColumns,
  description: products.description,
  weightKg: products.weightKg,
  heightCm: products.heightCm,
  widthCm: products.widthCm,
  lengthCm: products.lengthCm,
  scaleCode: products.scaleCode,
};

export type ListRow = {
  [K in keyof typeof listColumns]: unknown;
} & {
  id: number;
  name: string;
  sku: string | null;
  barcode: string | null;
  productType: string;
  unit: string;
  salePriceCents: number;
  costPriceCents: number;
  categoryId: number | null;
  categoryName: string | null;
  brandId: number | null;
  brandName: string | null;
  active: boolean;
  stockControl: boolean;
  variantCount: number;
  coverKey: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export function toListItem(r: ListRow): ProductListItem {
  const stock = num(r.stock);
  const minStock = num(r.minStock);
  return {
    id: r.id,
    name: r.name,
    sku: r.sku,
    barcode: r.barcode,
    productType: r.productType as ProductType,
    unit: r.unit as ProductUnit,
    salePriceCents: r.salePriceCents,
    costPriceCents: r.costPriceCents,
    marginPercent: marginPercent(r.salePriceCents, r.costPriceCents),
    category: r.categoryId !== null ? { id: r.categoryId, name: r.categoryName ?? '' } : null,
    brand: r.brandId !== null ? { id: r.brandId, name: r.brandName ?? '' } : null,
    active: r.active,
    stockControl: r.stockControl,
    stock,
    minStock,
    isLowStock: isLowStock({ stockControl: r.stockControl, stock, minStock }),
    variantCount: Number(r.variantCount),
    coverThumbUrl: r.coverKey ? imageUrls(r.coverKey).thumbUrl : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
