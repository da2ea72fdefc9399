import { withCheckDigit } from '@balcao/core/barcode';
import type { ProductInput } from '@balcao/core/product';
import type { TestApp } from '../../../test/helper.ts';

let seq = 0;

/** A valid EAN-13 not used before in this test process (internal-use prefix 2). */
export function newEan13(): string {
  seq++;
  return withCheckDigit(`2${String(process.pid % 10000).padStart(4, '0')}${String(seq).padStart(7, '0')}`);
}

/** Factory with overrides: POST /v1/product, expecting 201. */
export async function createProductVia(
  t: TestApp,
  headers: Record<string, string>,
  overrides: Partial<ProductInput> = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/product',
    headers,
    payload: { name: `Produto ${++seq}`, salePriceCents: 1000, ...overrides },
  });
  if (res.statusCode !== 201) throw new Error(`product factory: ${res.statusCode} ${res.body}`);
  return res.json();
}
