import { describe, expect, it } from 'vitest';
import {
  centsToMoneyInput,
  gridCombinations,
  isLowStock,
  marginPercent,
  maskQuantityInput,
  moneyInputToCents,
  numberToQuantityInput,
  PRODUCT_SEARCH_CAP,
  type ProductFormValues,
  productCountText,
  productFormSchema,
  productGridInputSchema,
  productInputSchema,
  quantityInputToNumber,
  searchKey,
  skuPart,
  variantName,
} from './product.ts';

const form = (overrides: Partial<ProductFormValues> = {}): ProductFormValues => ({
  name: 'Camiseta',
  description: '',
  sku: '',
  barcode: '',
  productType: 'simple',
  unit: 'un',
  salePriceCents: '49,90',
  costPriceCents: '',
  categoryId: null,
  brandId: null,
  active: true,
  stockControl: true,
  stock: '',
  minStock: '',
  weightKg: '',
  heightCm: '',
  widthCm: '',
  lengthCm: '',
  additionalGroupIds: [],
  colors: [],
  sizes: [],
  ...overrides,
});

describe('catalog rules', () => {
  it('margin over the sale price, 2 decimals; none without a price', () => {
    expect(marginPercent(1299, 780)).toBe(39.95);
    expect(marginPercent(1000, 1200)).toBe(-20);
    expect(marginPercent(0, 100)).toBeNull();
  });

  it('low stock only when controlled and a minimum is set', () => {
    expect(isLowStock({ stockControl: true, stock: 5, minStock: 5 })).toBe(true);
    expect(isLowStock({ stockControl: true, stock: 6, minStock: 5 })).toBe(false);
    expect(isLowStock({ stockControl: false, stock: 0, minStock: 5 })).toBe(false);
    expect(isLowStock({ stockControl: true, stock: 0, minStock: 0 })).toBe(false);
  });

  it('grid combinations, names and SKU parts', () => {
    expect(gridCombinations(['Azul', 'Preto'], ['P', 'M'])).toEqual([
      { color: 'Azul', size: 'P' },
      { color: 'Azul', size: 'M' },
      { color: 'Preto', size: 'P' },
      { color: 'Preto', size: 'M' },
    ]);
    expect(gridCombinations([], ['38'])).toEqual([{ color: null, size: '38' }]);
    expect(variantName('Azul', 'M')).toBe('Azul / M');
    expect(variantName(null, 'M')).toBe('M');
    expect(skuPart('Azul Marinho (escuro)')).toBe('AZUL-MARINHO-ESCURO');
    expect(skuPart('Açaí')).toBe('ACAI');
    expect(searchKey('  Pão   de Açúcar ')).toBe('pao de acucar');
  });

  it('grid input: at least one colour or size, no repeated names', () => {
    expect(productGridInputSchema.safeParse({ colors: [], sizes: [] }).error?.issues[0].message).toBe(
      'Informe ao menos uma cor ou um tamanho',
    );
    expect(productGridInputSchema.safeParse({ colors: ['Azul', 'azul'] }).error?.issues[0].message).toBe(
      'Cores: há nomes repetidos',
    );
    expect(productGridInputSchema.parse({ sizes: [' P ', 'M'] })).toEqual({ colors: [], sizes: ['P', 'M'] });
  });

  it('product input: service does not control stock; empty SKU and barcode become null', () => {
    const service = productInputSchema.safeParse({
      name: 'Conserto',
      salePriceCents: 100,
      productType: 'service',
    });
    expect(service.error?.issues[0]).toMatchObject({
      path: ['stockControl'],
      message: 'Serviço não controla estoque',
    });
    const ok = productInputSchema.parse({ name: 'X', salePriceCents: 1, sku: ' ', barcode: '' });
    expect([ok.sku, ok.barcode]).toEqual([null, null]);
  });
});

describe('form inputs', () => {
  it('quantity mask keeps up to 3 (or 2) decimals with a comma', () => {
    expect(maskQuantityInput('1.2567')).toBe('1,256');
    expect(maskQuantityInput('12,5cm', 2)).toBe('12,5');
    expect(maskQuantityInput(',5')).toBe('0,5');
    expect(maskQuantityInput('3,', 0)).toBe('3');
    expect(quantityInputToNumber('1,25')).toBe(1.25);
    expect(quantityInputToNumber('')).toBeNull();
    expect(numberToQuantityInput(0.1 + 0.2)).toBe('0,3');
    expect(numberToQuantityInput(null)).toBe('');
  });

  it('money input to cents without float error, and back', () => {
    expect(moneyInputToCents('0,29')).toBe(29);
    expect(moneyInputToCents('1234,5')).toBe(123450);
    expect(moneyInputToCents('')).toBeUndefined();
    expect(moneyInputToCents('1,2,3')).toBeNaN();
    expect(centsToMoneyInput(123405)).toBe('1234,05');
  });

  it('the form schema turns input texts into the API input', () => {
    const parsed = productFormSchema.parse(
      form({
        costPriceCents: '20,10',
        stock: '3,5',
        weightKg: '0,35',
        productType: 'variants',
        colors: ['Azul'],
      }),
    );
    expect(parsed).toMatchObject({
      salePriceCents: 4990,
      costPriceCents: 2010,
      stock: 3.5,
      weightKg: 0.35,
      heightCm: null,
      sku: null,
      grid: { colors: ['Azul'], sizes: [] },
    });
    const missing = productFormSchema.safeParse(form({ name: '', salePriceCents: '' }));
    expect(missing.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'O campo é obrigatório'],
      ['salePriceCents', 'O campo é obrigatório'],
    ]);
  });
});

describe('product list count', () => {
  it('says how many products a search found, "mais de 1.000" past the cap', () => {
    expect(productCountText({ total: PRODUCT_SEARCH_CAP, totalCapped: true })).toBe('mais de 1.000 produtos');
    expect(productCountText({ total: 1, totalCapped: false })).toBe('1 produto');
    expect(productCountText({ total: 0, totalCapped: false })).toBe('0 produtos');
    expect(productCountText({ total: 999, totalCapped: false })).toBe('999 produtos');
  });
});
