import { addDays } from '@balcao/core/date';
import type { Db } from '../../db/client.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { cpf } from '../customer/seed.ts';
import { customerIdByDocument } from '../customer/service.ts';
import { insertInstallments } from './service.ts';

type Demo = {
  /** The demo customer's CPF (customer/seed.ts). */
  document: string;
  /** Crediário installments: days from today (negative = already due) and whether paid. */
  installments: { days: number; cents: number; paid?: boolean }[];
};

const DEMO_RECEIVABLES: Demo[] = [
  {
    // Maria Aparecida Santos: one overdue, one to come.
    document: cpf('123456789'),
    installments: [
      { days: -20, cents: 12000 },
      { days: 10, cents: 12000 },
    ],
  },
  // José Carlos Oliveira: overdue.
  { document: cpf('234567890'), installments: [{ days: -45, cents: 8990 }] },
  // Ana Paula Ferreira: paid.
  { document: cpf('345678901'), installments: [{ days: -5, cents: 4500, paid: true }] },
  // Juliana Costa Ribeiro: to come.
  { document: cpf('789012345'), installments: [{ days: 25, cents: 15000 }] },
];

/** Crediário installments of the demo customers (two of them overdue); runs after the customer seed. */
export async function seedReceivables(db: Db, clientId: number): Promise<void> {
  const today = await shopToday(db, clientId);
  await db.transaction(async (tx) => {
    for (const demo of DEMO_RECEIVABLES) {
      const customerId = await customerIdByDocument(tx, clientId, demo.document);
      if (customerId === null)
        throw new Error(`Demo customer ${demo.document} missing: seed customers first`);
      await insertInstallments(
        tx,
        demo.installments.map((r, i) => ({
          clientId,
          customerId,
          installment: i + 1,
          amountCents: r.cents,
          dueDate: addDays(today, r.days),
          status: r.paid ? 'finished' : 'pending',
          paidAt: r.paid ? new Date() : null,
        })),
      );
    }
  });
}
