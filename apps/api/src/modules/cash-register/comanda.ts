import type { Executor } from '../../db/client.ts';
import { cashRegisterMovements } from './schema.ts';

/**
 * Cash a comanda took early at another register than the one its sale closes at (issue 16,
 * docs/decisions.md): the sale counts every payment at the closing register, so the money handed to
 * another user is moved there: a receipt on the register that holds the notes and a withdrawal of
 * the same amount on the closing register. Both drawers then expect what they hold.
 */
export async function moveComandaCash(
  tx: Executor,
  move: {
    clientId: number;
    userId: number;
    /** The register of the user who received the money. */
    heldAt: number;
    /** The register the sale was recorded at. */
    saleAt: number;
    amountCents: number;
    reason: string;
  },
): Promise<void> {
  if (move.heldAt === move.saleAt || move.amountCents <= 0) return;
  const common = {
    clientId: move.clientId,
    userId: move.userId,
    paymentMethod: 'money',
    amountCents: move.amountCents,
  };
  await tx.insert(cashRegisterMovements).values([
    { ...common, cashRegisterId: move.heldAt, type: 'receipt', reason: move.reason },
    { ...common, cashRegisterId: move.saleAt, type: 'withdrawal', reason: move.reason },
  ]);
}
