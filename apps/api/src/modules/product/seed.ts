import { withCheckDigit } from '@balcao/core/barcode';
import { type ProductInput, productAdditionalInputSchema, productInputSchema } from '@balcao/core/product';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { adminOf } from '../../lib/actor.ts';
import { createAdditionalGroup } from '../product-additional/service.ts';
import { brandService } from '../product-brand/service.ts';
import { categoryService } from '../product-category/service.ts';
import { groupProductCount } from './additionalGroups.ts';
import { refreshDerived } from './rules.ts';
import { productVariants } from './schema.ts';
import { insertProduct } from './service.ts';

/** Demo EAN-13 codes: GS1 Brasil prefix 789, a made-up company, a valid check digit. */
const ean = (item: number) => withCheckDigit(`7899990${String(item).padStart(5, '0')}`);

/**
 * The demo shop is a Lanchonete (seed.ts SEED_STEPS): burgers with add-on groups, portions,
 * drinks with barcodes and stock (two below the minimum), desserts, açaí sold by weight, and
 * branded T-shirts and caps with colour/size variants.
 */
export async function seedCatalog(db: Db, clientId: number): Promise<void> {
  const actor = await adminOf(db, clientId);
  const category: Record<string, number> = {};
  for (const name of ['Lanches', 'Porções', 'Bebidas', 'Sobremesas', 'Açaí', 'Vestuário'])
    category[name] = (await categoryService.create(db, actor, { name, active: true })).id;
  const brand: Record<string, number> = {};
  for (const name of ['Casa', 'Coca-Cola', 'Ambev', 'Heineken', 'Nestlé'])
    brand[name] = (await brandService.create(db, actor, { name, active: true })).id;

  const group = async (input: Parameters<typeof productAdditionalInputSchema.parse>[0]) =>
    (await createAdditionalGroup(db, actor, productAdditionalInputSchema.parse(input), groupProductCount)).id;
  const adicionais = await group({
    name: 'Adicionais',
    minQuantity: 0,
    maxQuantity: 3,
    items: [
      { name: 'Bacon', priceCents: 400 },
      { name: 'Cheddar', priceCents: 300 },
      { name: 'Ovo', priceCents: 200 },
      { name: 'Catupiry', priceCents: 350 },
      { name: 'Cebola caramelizada', priceCents: 300 },
      { name: 'Hambúrguer extra', priceCents: 800 },
    ],
  });
  const ponto = await group({
    name: 'Ponto da carne',
    minQuantity: 1,
    maxQuantity: 1,
    items: [{ name: 'Mal passado' }, { name: 'Ao ponto' }, { name: 'Bem passado' }],
  });
  const molhos = await group({
    name: 'Molhos',
    minQuantity: 0,
    maxQuantity: 2,
    items: [
      { name: 'Maionese da casa' },
      { name: 'Barbecue' },
      { name: 'Mostarda e mel', priceCents: 150 },
      { name: 'Pimenta', priceCents: 0 },
    ],
  });
  const acaiExtras = await group({
    name: 'Complementos do açaí',
    minQuantity: 0,
    maxQuantity: 5,
    items: [
      { name: 'Granola', priceCents: 200 },
      { name: 'Leite condensado', priceCents: 250 },
      { name: 'Banana', priceCents: 200 },
      { name: 'Paçoca', priceCents: 250 },
      { name: 'Morango', priceCents: 350 },
    ],
  });

  const burger = (
    name: string,
    sku: string,
    price: number,
    cost: number,
    description: string,
  ): ProductInput => ({
    name,
    sku,
    salePriceCents: price,
    costPriceCents: cost,
    categoryId: category.Lanches,
    brandId: brand.Casa,
    description,
    stockControl: false,
    additionalGroupIds: [adicionais, ponto, molhos],
  });
  const drink = (
    name: string,
    sku: string,
    item: number,
    price: number,
    cost: number,
    brandName: string,
    stock: number,
    minStock: number,
    weightKg: number,
  ): ProductInput => ({
    name,
    sku,
    barcode: ean(item),
    salePriceCents: price,
    costPriceCents: cost,
    categoryId: category.Bebidas,
    brandId: brand[brandName],
    stock,
    minStock,
    weightKg,
  });

  const products: ProductInput[] = [
    burger(
      'X-Burger',
      'LAN-001',
      2490,
      980,
      'Pão brioche, hambúrguer 150 g, queijo prato e maionese da casa',
    ),
    burger('X-Salada', 'LAN-002', 2690, 1090, 'Hambúrguer 150 g, queijo, alface, tomate e maionese'),
    burger('X-Bacon', 'LAN-003', 2990, 1290, 'Hambúrguer 150 g, queijo, bacon crocante e maionese'),
    burger('X-Tudo', 'LAN-004', 3490, 1590, 'Hambúrguer, queijo, presunto, bacon, ovo, alface e tomate'),
    burger(
      'Cheeseburger Artesanal',
      'LAN-005',
      3290,
      1420,
      'Blend 180 g, cheddar inglês e cebola caramelizada',
    ),
    {
      ...burger('Misto Quente', 'LAN-006', 1200, 450, 'Pão de forma, presunto e queijo na chapa'),
      additionalGroupIds: [adicionais],
    },
    {
      ...burger('Cachorro-Quente', 'LAN-007', 1490, 520, 'Salsicha, purê, vinagrete, milho e batata palha'),
      additionalGroupIds: [adicionais, molhos],
    },
    {
      name: 'Batata Frita 300 g',
      sku: 'POR-001',
      salePriceCents: 2200,
      costPriceCents: 700,
      categoryId: category.Porções,
      stockControl: false,
      additionalGroupIds: [molhos],
    },
    {
      name: 'Batata com Cheddar e Bacon',
      sku: 'POR-002',
      salePriceCents: 3200,
      costPriceCents: 1150,
      categoryId: category.Porções,
      stockControl: false,
    },
    {
      name: 'Onion Rings',
      sku: 'POR-003',
      salePriceCents: 2400,
      costPriceCents: 820,
      categoryId: category.Porções,
      stockControl: false,
      additionalGroupIds: [molhos],
    },
    {
      name: 'Frango a Passarinho',
      sku: 'POR-004',
      salePriceCents: 3990,
      costPriceCents: 1500,
      categoryId: category.Porções,
      stockControl: false,
    },
    drink('Coca-Cola Lata 350 ml', 'BEB-001', 1, 600, 320, 'Coca-Cola', 96, 24, 0.37),
    drink('Coca-Cola Zero Lata 350 ml', 'BEB-002', 2, 600, 320, 'Coca-Cola', 18, 24, 0.37),
    drink('Coca-Cola 2 L', 'BEB-003', 3, 1400, 850, 'Coca-Cola', 20, 6, 2.1),
    drink('Guaraná Antarctica Lata 350 ml', 'BEB-004', 4, 550, 290, 'Ambev', 72, 24, 0.37),
    drink('Água Mineral sem Gás 500 ml', 'BEB-005', 5, 350, 120, 'Nestlé', 4, 12, 0.52),
    drink('Cerveja Heineken Long Neck 330 ml', 'BEB-006', 6, 990, 560, 'Heineken', 48, 12, 0.56),
    {
      name: 'Suco Natural de Laranja 300 ml',
      sku: 'BEB-007',
      salePriceCents: 900,
      costPriceCents: 300,
      categoryId: category.Bebidas,
      stockControl: false,
    },
    {
      name: 'Pudim de Leite',
      sku: 'SOB-001',
      salePriceCents: 900,
      costPriceCents: 280,
      categoryId: category.Sobremesas,
      stock: 8,
      minStock: 3,
    },
    {
      name: 'Brownie de Chocolate',
      sku: 'SOB-002',
      salePriceCents: 1100,
      costPriceCents: 350,
      categoryId: category.Sobremesas,
      stock: 12,
      minStock: 4,
      barcode: ean(20),
    },
    {
      name: 'Petit Gâteau com Sorvete',
      sku: 'SOB-003',
      salePriceCents: 1890,
      costPriceCents: 620,
      categoryId: category.Sobremesas,
      stockControl: false,
    },
    {
      name: 'Açaí no Peso',
      sku: 'ACA-KG',
      productType: 'weighed',
      unit: 'kg',
      salePriceCents: 5990,
      costPriceCents: 2200,
      categoryId: category.Açaí,
      stock: 12.5,
      minStock: 3,
      description: 'Preço por quilo: pese o copo na balança',
      additionalGroupIds: [acaiExtras],
    },
    {
      name: 'Embalagem para Viagem',
      sku: 'SRV-001',
      productType: 'service',
      salePriceCents: 200,
      stockControl: false,
      description: 'Caixa térmica e sacola',
    },
  ];
  for (const input of products)
    await db.transaction((tx) => insertProduct(tx, actor, productInputSchema.parse(input)));

  // Merchandise with a grid: a T-shirt by colour and size, a cap by colour.
  const shirt = await db.transaction((tx) =>
    insertProduct(
      tx,
      actor,
      productInputSchema.parse({
        name: 'Camiseta Balcão Lanches',
        sku: 'CAM',
        productType: 'variants',
        salePriceCents: 4990,
        costPriceCents: 2200,
        categoryId: category.Vestuário,
        brandId: brand.Casa,
        minStock: 5,
        weightKg: 0.18,
        heightCm: 3,
        widthCm: 25,
        lengthCm: 30,
        description: 'Camiseta 100% algodão com a logo da casa',
        grid: { colors: ['Preto', 'Branco'], sizes: ['P', 'M', 'G', 'GG'] },
      }),
    ),
  );
  const cap = await db.transaction((tx) =>
    insertProduct(
      tx,
      actor,
      productInputSchema.parse({
        name: 'Boné Balcão Lanches',
        sku: 'BON',
        productType: 'variants',
        salePriceCents: 3990,
        costPriceCents: 1500,
        categoryId: category.Vestuário,
        brandId: brand.Casa,
        weightKg: 0.12,
        grid: { colors: ['Preto', 'Vermelho'], sizes: [] },
      }),
    ),
  );
  // Barcodes, stock and a price for the larger size on some variants.
  const shirtVariants = await db.select().from(productVariants).where(eq(productVariants.productId, shirt));
  let item = 100;
  for (const v of shirtVariants) {
    const big = v.sku?.endsWith('-GG');
    await db
      .update(productVariants)
      .set({ barcode: ean(item++), stock: big ? 2 : 6, priceCents: big ? 5490 : null })
      .where(and(eq(productVariants.id, v.id), eq(productVariants.clientId, clientId)));
  }
  const capVariants = await db.select().from(productVariants).where(eq(productVariants.productId, cap));
  for (const v of capVariants)
    await db
      .update(productVariants)
      .set({ barcode: ean(item++), stock: 10 })
      .where(eq(productVariants.id, v.id));
  await refreshDerived(db, shirt);
  await refreshDerived(db, cap);
}
