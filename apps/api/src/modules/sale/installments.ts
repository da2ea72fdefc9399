import { eq } from 'drizzle-orm';
import type { SaleOfInstallments } from '../receivable/settle.ts';
import { lockSale } from './cancel.ts';
import { findSale } from './read.ts';
import { sales } from './schema.ts';

/**
 * The sale's side of settling an installment, handed to the receivable module at wiring
 * (modules/index.ts): a crediário or boleto sale stays pending until its last installment is paid.
 */
export const saleOfInstallments: SaleOfInstallments = {
  lock: lockSale,
  async installmentPaid(tx, sale, nonePending, at) {
    const finish = nonePending && sale.status === 'pending';
    await tx
      .update(sales)
      .set(finish ? { status: 'finished', finishedAt: at, updatedAt: at } : { updatedAt: at })
      .where(eq(sales.id, sale.id));
  },
  find: findSale,
};
