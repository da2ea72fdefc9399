import { describe, expect, it } from 'vitest';
import {
  barcodeKind,
  eplLabels,
  eplText,
  type LabelItem,
  labelItemsOfEntry,
  labelItemsText,
  zplLabels,
  zplText,
} from './printerLabels.ts';

const shirt: LabelItem = {
  name: 'Camiseta Básica',
  variantName: 'Azul / M',
  priceCents: 4990,
  code: '7891234567895',
  copies: 3,
};
const bread: LabelItem = {
  name: 'Pão de mel ^especial~',
  variantName: null,
  priceCents: 650,
  code: 'PAO-MEL_1',
  copies: 1,
};

describe('barcode kind', () => {
  it('EAN-13 for a valid GTIN-13, Code 128 for anything else', () => {
    expect(barcodeKind('7891234567895')).toBe('ean13');
    expect(barcodeKind('7891234567896')).toBe('code128'); // wrong check digit
    expect(barcodeKind('CAM-AZ-M')).toBe('code128');
    expect(barcodeKind('78912345')).toBe('code128'); // EAN-8 prints as Code 128 here
  });
});

describe('ZPL', () => {
  it('one format per product: UTF-8, size, name, variant, price, EAN-13 of 12 digits, copies', () => {
    const zpl = zplLabels([shirt]);
    const lines = zpl.split('\n');
    expect(lines[0]).toBe('^XA');
    expect(lines).toContain('^CI28');
    // 50 x 30 mm at 203 dpi = 400 x 240 dots.
    expect(lines).toContain('^PW400');
    expect(lines).toContain('^LL240');
    expect(zpl).toContain('^FDCamiseta Básica^FS');
    expect(zpl).toContain('^FDAzul / M^FS');
    expect(zpl).toContain('^FDR$ 49,90^FS');
    expect(zpl).toMatch(/\^BEN,\d+,Y,N\^FD789123456789\^FS/);
    expect(lines.at(-2)).toBe('^PQ3');
    expect(lines.at(-1)).toBe('^XZ');
  });

  it('escapes ^, ~ and _ in field data (a name never breaks the format) and uses Code 128 for a SKU', () => {
    expect(zplText('a^b~c_d')).toBe('a_5Eb_7Ec_5Fd');
    const zpl = zplLabels([bread]);
    expect(zpl).toContain('^FH^FDPão de mel _5Eespecial_7E^FS');
    expect(zpl).toContain('^BCN,');
    expect(zpl).toContain('^FH^FDPAO-MEL_5F1^FS');
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
  });

  it('two products make two formats in order', () => {
    const zpl = zplLabels([shirt, bread]);
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.indexOf('Camiseta')).toBeLessThan(zpl.indexOf('mel'));
  });
});

describe('EPL2', () => {
  it('one form per product: clear, size, texts without accents, EAN-13 (E30), copies', () => {
    const epl = eplLabels([shirt]);
    const lines = epl.split('\n');
    expect(lines[1]).toBe('N');
    expect(lines).toContain('q400');
    expect(lines).toContain('Q240,24');
    expect(epl).toContain(',0,2,1,1,N,"Camiseta Basica"');
    expect(epl).toContain(',0,4,1,1,N,"R$ 49,90"');
    expect(epl).toMatch(/B\d+,\d+,0,E30,2,2,\d+,B,"789123456789"/);
    expect(lines).toContain('P3');
  });

  it('escapes quotes and backslashes and prints a SKU as Code 128', () => {
    expect(eplText('Copo 300ml "long" \\ ação')).toBe('Copo 300ml \\"long\\" \\\\ acao');
    expect(eplLabels([bread])).toMatch(/B\d+,\d+,0,1,2,2,\d+,B,"PAO-MEL_1"/);
  });
});

describe('a stock entry as a label source', () => {
  it('one label per unit that arrived, one for a weighed quantity, repeated lines add up, at most 500', () => {
    const items = labelItemsOfEntry([
      { productId: 1, variantId: null, quantity: 12 },
      { productId: 2, variantId: 7, quantity: 3 },
      { productId: 3, variantId: null, quantity: 12.5 },
      { productId: 2, variantId: 7, quantity: 2 },
      { productId: 4, variantId: null, quantity: 900 },
    ]);
    expect(items).toEqual([
      { productId: 1, variantId: null, copies: 12 },
      { productId: 2, variantId: 7, copies: 5 },
      { productId: 3, variantId: null, copies: 1 },
      { productId: 4, variantId: null, copies: 500 },
    ]);
    expect(labelItemsText(items)).toBe('1x12,2-7x5,3x1,4x500');
  });
});
