import type { Home } from '@balcao/core/home';
import { ACTION, COUNTER, can, FINANCE, WRITE } from '@balcao/core/routes';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { clients } from '../../db/schema.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { currentRegister } from '../cash-register/service.ts';
import { waiterHomeFigures } from '../comanda/homeFigures.ts';
import { toCollectFromDrivers, withSettledDeliveries } from '../delivery/settlement.ts';
import { payableDueFigures } from '../payable/dueFigures.ts';
import { lowStockCount } from '../product/homeFigures.ts';
import { receivableHomeFigures } from '../receivable/homeFigures.ts';
import { saleHomeFigures } from '../sale/homeFigures.ts';
import { registerSaleFigures } from '../sale/registerFigures.ts';

/**
 * The shop's day at a glance for the logged user (GET /v1/home). Each part only for the user types
 * that see it: the shop's sales (ACTION.shopFigures), one's own register (COUNTER), the garçom's own tabs (ACTION.serveTables), low stock (WRITE.stock,
 * with stock management on), installments due (ACTION.settleReceivables), payables due
 * (FINANCE, issue 34). Parts run side by side.
 */
export async function homeOf(db: Db, session: SessionUser): Promise<Home> {
  const type = session.userTypeId;
  const [client] = await db
    .select({
      stockManagement: clients.stockManagement,
      saleCommand: clients.saleCommand,
      today: sql<string>`(now() at time zone ${clients.timeZone})::date::text`,
    })
    .from(clients)
    .where(eq(clients.id, session.clientId));
  const [sales, register, lowStock, receivables, drivers, tables, payables] = await Promise.all([
    can(type, ACTION.shopFigures) ? saleHomeFigures(db, session) : null,
    // Issue 30: the garçom holds no register (the counter's people do).
    can(type, COUNTER) ? currentRegister(db, withSettledDeliveries(registerSaleFigures), session) : undefined,
    can(type, WRITE.stock) && client.stockManagement ? lowStockCount(db, session) : null,
    can(type, ACTION.settleReceivables) ? receivableHomeFigures(db, session) : null,
    can(type, ACTION.settleDrivers) ? toCollectFromDrivers(db, session.clientId) : null,
    can(type, ACTION.serveTables) && client.saleCommand ? waiterHomeFigures(db, session) : null,
    can(type, FINANCE) ? payableDueFigures(db, session) : null,
  ]);
  return {
    today: client.today,
    sales,
    register: register === undefined ? null : { cashRegister: register },
    lowStock: lowStock === null ? null : { count: lowStock },
    receivables,
    drivers: drivers === null ? null : { toCollectCents: drivers.cents, orders: drivers.orders },
    tables,
    payables,
  };
}
