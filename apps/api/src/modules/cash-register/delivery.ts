import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { cashRegisterMovements, cashRegisters } from './schema.ts';

/**
 * Delivery money in the registers (issue 30 item 5, docs/decisions.md "Delivery money reconciles"):
 * the change float a driver takes is a sangria of the register the sale was made at, and a
 * driver's settlement (acerto) is a suprimento of the counted cash into an open register chosen by
 * the manager, with the drivers' fees paid out of it as a sangria. All in the caller's transaction.
 */

export const SETTLEMENT_REGISTER_CLOSED = 'Escolha um caixa aberto para receber o acerto';

/** The change float for a delivery, taken out of the sale's register (locked by the sale). */
export async function takeDeliveryFloat(
  tx: Executor,
  move: { clientId: number; userId: number; registerId: number; amountCents: number; reason: string },
): Promise<void> {
  if (move.amountCents <= 0) return;
  await tx.insert(cashRegisterMovements).values({
    clientId: move.clientId,
    cashRegisterId: move.registerId,
    userId: move.userId,
    type: 'withdrawal',
    paymentMethod: 'money',
    amountCents: move.amountCents,
    reason: move.reason,
  });
}

/**
 * The float of an order canceled before it left goes back into its register, when that register is
 * still open (answers whether it did: a closed register counted it short at its close).
 */
export async function returnDeliveryFloat(
  tx: Executor,
  move: { clientId: number; registerId: number; amountCents: number; reason: string },
): Promise<boolean> {
  if (move.amountCents <= 0) return false;
  const [register] = await tx
    .select({ userId: cashRegisters.userId })
    .from(cashRegisters)
    .where(
      and(
        eq(cashRegisters.id, move.registerId),
        eq(cashRegisters.clientId, move.clientId),
        eq(cashRegisters.status, 'open'),
      ),
    )
    .for('update');
  if (!register) return false;
  await tx.insert(cashRegisterMovements).values({
    clientId: move.clientId,
    cashRegisterId: move.registerId,
    userId: register.userId,
    type: 'deposit',
    paymentMethod: 'money',
    amountCents: move.amountCents,
    reason: move.reason,
  });
  return true;
}

/**
 * A driver's settlement into an open register of the shop (422 when it is not open): the counted
 * cash in (suprimento), the fees out (sangria). The register is locked so its close waits.
 */
export async function settleDriverCash(
  tx: Executor,
  move: {
    clientId: number;
    userId: number;
    registerId: number;
    countedCents: number;
    feesCents: number;
    driverName: string;
  },
): Promise<void> {
  const [register] = await tx
    .select({ id: cashRegisters.id })
    .from(cashRegisters)
    .where(
      and(
        eq(cashRegisters.id, move.registerId),
        eq(cashRegisters.clientId, move.clientId),
        eq(cashRegisters.status, 'open'),
      ),
    )
    .for('update');
  if (!register) {
    throw new AppError(422, SETTLEMENT_REGISTER_CLOSED, [
      { path: 'cashRegisterId', message: SETTLEMENT_REGISTER_CLOSED },
    ]);
  }
  const common = {
    clientId: move.clientId,
    cashRegisterId: move.registerId,
    userId: move.userId,
    paymentMethod: 'money',
  };
  const rows = [
    ...(move.countedCents > 0
      ? [
          {
            ...common,
            type: 'deposit',
            amountCents: move.countedCents,
            reason: `Acerto de ${move.driverName}: dinheiro recebido`,
          },
        ]
      : []),
    ...(move.feesCents > 0
      ? [
          {
            ...common,
            type: 'withdrawal',
            amountCents: move.feesCents,
            reason: `Acerto de ${move.driverName}: taxas de entrega pagas`,
          },
        ]
      : []),
  ];
  if (rows.length > 0) await tx.insert(cashRegisterMovements).values(rows);
  await tx.update(cashRegisters).set({ updatedAt: new Date() }).where(eq(cashRegisters.id, register.id));
}
