import type { CustomerListItem } from '@balcao/core/customer';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_CSV_UNPARSE, customerCsvRow, customersCsv, EXPORT_KEYS } from './csv.ts';

function customer(i: number): CustomerListItem {
  return {
    id: i,
    clientId: 1,
    personType: i % 3 === 0 ? 'company' : 'person',
    name: i % 7 === 0 ? `=Cliente; "${i}"` : `Cliente ${i}`,
    document: null,
    email: i % 2 ? `c${i}@x.com` : null,
    phone: null,
    birthDate: i % 5 ? '1990-02-03' : null,
    notes: i % 11 === 0 ? 'linha 1\nlinha 2' : null,
    creditLimitCents: i * 150,
    active: i % 4 !== 0,
    whatsappValid: i % 3 === 0 ? null : i % 3 === 1,
    whatsappCheckedAt: null,
    tags: [],
    isDelinquent: i % 6 === 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    defaultAddress:
      i % 2
        ? {
            id: i,
            customerId: i,
            label: null,
            zipCode: '01001000',
            street: 'Praça da Sé',
            number: String(i),
            complement: i % 4 === 1 ? '+ fundos' : null,
            neighborhood: 'Sé',
            city: 'São Paulo',
            state: 'SP',
            isDefault: true,
          }
        : null,
  };
}

async function* each<T>(items: T[]) {
  for (const item of items) yield item;
}

/** What `sendCsvStream` writes: the header, then the lines 500 rows at a time, then the rest. */
async function streamed(items: CustomerListItem[]): Promise<string> {
  const csv = await customersCsv(each(items));
  let text = csv.header;
  let batch: CustomerListItem[] = [];
  for await (const item of csv.rows) {
    batch.push(item);
    if (batch.length === 500) {
      text += csv.lines(batch);
      batch = [];
    }
  }
  return text + csv.lines(batch);
}

/** The export as it was before it streamed (issue 29): Papa over the whole list, the bytes to keep. */
function whole(items: CustomerListItem[]): string {
  const csv = Papa.unparse({ fields: EXPORT_KEYS, data: items.map(customerCsvRow) }, CUSTOMER_CSV_UNPARSE);
  return `\uFEFF${csv}\r\n`;
}

describe('the customers CSV, streamed in batches', () => {
  it.each([0, 1, 499, 500, 1201])('keeps the whole-file bytes with %i customers', async (count) => {
    const items = Array.from({ length: count }, (_, i) => customer(i + 1));
    expect(await streamed(items)).toBe(whole(items));
  });
});
