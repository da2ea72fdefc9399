/// <reference types="vite/client" />
/// <reference lib="dom" />
/**
 * Runs inside Chromium (bundled by bench/local-search.ts): the PDV's own LocalCatalog over a real
 * IndexedDB with N generated products, timed with performance.now().
 */
import type { Product } from '@balcao/core/product';
import { LocalCatalog } from '../apps/web/src/features/offline/catalog.ts';
import { offlineDb } from '../apps/web/src/features/offline/db.ts';

const WORDS = [
  'Café',
  'Açúcar',
  'Arroz',
  'Feijão',
  'Macarrão',
  'Leite',
  'Manteiga',
  'Queijo',
  'Presunto',
  'Pão',
  'Biscoito',
  'Bolacha',
  'Suco',
  'Refrigerante',
  'Água',
  'Cerveja',
  'Vinho',
  'Sabão',
  'Detergente',
  'Shampoo',
  'Condicionador',
  'Caderno',
  'Caneta',
  'Lápis',
  'Borracha',
  'Camiseta',
  'Calça',
  'Meia',
  'Tênis',
  'Chinelo',
  'Parafuso',
  'Prego',
  'Martelo',
  'Tomada',
  'Lâmpada',
  'Pilha',
  'Carregador',
  'Fone',
  'Cabo',
  'Capinha',
  'Chocolate',
  'Bala',
  'Chiclete',
  'Farinha',
  'Óleo',
  'Azeite',
  'Vinagre',
  'Sal',
  'Tempero',
  'Molho',
];
const QUALIFIERS = [
  'integral',
  'tradicional',
  'light',
  'zero',
  'premium',
  'extra',
  'especial',
  'orgânico',
  'caseiro',
  'gourmet',
  'azul',
  'vermelho',
  'preto',
  'branco',
  'grande',
  'pequeno',
  'médio',
  'infantil',
  'adulto',
  'familiar',
];
const BRANDS = ['Sol', 'Vale', 'Serra', 'Mar', 'Rio', 'Campo', 'Ouro', 'Prata', 'Norte', 'Sul'];
const SIZES = ['200g', '500g', '1kg', '2kg', '350ml', '1L', '2L', 'P', 'M', 'G', '10un', '50un'];

/** A deterministic random (the same catalog every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export const barcodeOf = (n: number) => `789${String(n).padStart(10, '0')}`;

function product(n: number, random: () => number): Product {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const now = new Date().toISOString();
  return {
    id: n,
    name: `${pick(WORDS)} ${pick(QUALIFIERS)} ${pick(BRANDS)} ${pick(SIZES)} ${n}`,
    sku: `SKU-${n}`,
    barcode: barcodeOf(n),
    productType: 'simple',
    unit: 'un',
    salePriceCents: 100 + Math.floor(random() * 10_000),
    costPriceCents: 0,
    marginPercent: null,
    category: null,
    brand: null,
    active: true,
    stockControl: true,
    stock: 10,
    minStock: 0,
    isLowStock: false,
    variantCount: 0,
    coverThumbUrl: null,
    createdAt: now,
    updatedAt: now,
    description: '',
    weightKg: null,
    heightCm: null,
    widthCm: null,
    lengthCm: null,
    images: [],
    colors: [],
    sizes: [],
    variants: [],
    additionalGroups: [],
  } as unknown as Product;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
};

/** What an operator types, one keystroke at a time (each prefix is a search as the box changes). */
const TYPED = [
  'cafe',
  'arroz integral',
  'feijao',
  'biscoito choc',
  'cerveja',
  'sabao',
  'caderno azul',
  'suco zero',
  'leite',
  'queijo',
  'pa',
  'ca',
  'refrigerante 2l',
  'shampoo',
  'tomada',
  'fone',
  'chocolate gourmet',
  'agua',
  'oleo',
  'macarrao',
  'sku-4242',
  'sku-99999',
  'lampada',
  'meia infantil',
  'tenis preto',
];

async function run(count: number) {
  const random = rng(21);
  const db = offlineDb(1, 1);
  await db.products.clear();
  await db.meta.clear();
  const catalog = new LocalCatalog(db);
  let t = performance.now();
  for (let start = 1; start <= count; start += 5000) {
    const batch: Product[] = [];
    for (let n = start; n < start + 5000 && n <= count; n++) batch.push(product(n, random));
    await catalog.put(batch);
  }
  const storeMs = performance.now() - t;
  // A fresh catalog object: the load from IndexedDB a reloaded PDV does.
  const fresh = new LocalCatalog(db);
  t = performance.now();
  await fresh.load();
  const loadMs = performance.now() - t;

  const search: number[] = [];
  let empty = 0;
  for (let round = 0; round < 4; round++) {
    for (const phrase of TYPED) {
      for (let i = 2; i <= phrase.length; i++) {
        const q = phrase.slice(0, i);
        const s = performance.now();
        const found = await fresh.search(q);
        search.push(performance.now() - s);
        if (found.length === 0) empty++;
      }
    }
  }
  const codes: number[] = [];
  let missed = 0;
  for (let i = 0; i < 1000; i++) {
    const n = 1 + Math.floor(random() * count);
    const s = performance.now();
    const match = await fresh.byCode(barcodeOf(n));
    codes.push(performance.now() - s);
    if (match?.product.id !== n) missed++;
  }
  return { count, storeMs, loadMs, search: stats(search), empty, barcode: stats(codes), missed };
}

(window as unknown as { runBench: typeof run }).runBench = run;
