import { CASH_FLOW_METHODS, cashFlowMethodOf } from '@balcao/core/cashFlowMethods';
import { addDays } from '@balcao/core/date';
import {
  type CashFlow,
  type CashFlowQuery,
  type CashFlowRow,
  type DayClose,
  DRE_ENTRIES_MAX,
  type Dre,
  type DreCompared,
  type DreEntries,
  type DreEntry,
  type DreLine,
  feeCents,
  periodOf,
  type SalesByMethod,
} from '@balcao/core/finance';
import { formatCents } from '@balcao/core/money';
import {
  DRE_GROUP_LABELS,
  DRE_GROUPS,
  type DreGroup,
  monthOf,
  splitInstallments,
} from '@balcao/core/payable';
import { previousPeriod } from '@balcao/core/report';
import { PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/actor.ts';
import { shopToday } from '../../lib/shopToday.ts';
import {
  type ActiveFeeRates,
  activeFeeRates,
  type MealVoucherTerms,
  mealVoucherTerms,
} from '../fee-simulator/rates.ts';
import { findBankAccount } from '../payable/bankAccounts.ts';
import {
  payableExpensesOfMonth,
  payableFlows,
  payablesOfMonthGroup,
  paymentsOfDay,
} from '../payable/flows.ts';
import { receivableFlows } from '../receivable/cashFlow.ts';
import {
  creditInstallmentsByDay,
  eachPage,
  saleEntriesBetween,
  saleFiguresBetween,
  salePaymentsByDay,
  saleReturnEntriesBetween,
} from '../sale/financeFigures.ts';

/** Where the history of a shop starts for the opening balance (everything realised before `from`). */
const HISTORY_START = '2000-01-01';
/** A credit card sale without a fee table settles in 30 days (the usual D+30), with no fee known. */
const DEFAULT_CREDIT_DAYS = 30;
const PIX_METHODS = new Set(['pix', 'pixQrCode', 'pixQrCodeStatic']);
/** Not money in: crediário counts when received, vale-troca is the shop's own credit. */
const NOT_CASH = new Set(['creditShop', 'storeCredit']);

type Terms = { rates: ActiveFeeRates | null; vouchers: Map<string, MealVoucherTerms> };

async function termsOf(db: Executor, clientId: number): Promise<Terms> {
  return { rates: await activeFeeRates(db, clientId), vouchers: await mealVoucherTerms(db, clientId) };
}

/**
 * When (days after the sale) and at what rate a day's sales of a method reach the account: cards by the
 * active fee table, meal vouchers (Alelo, Pluxee, Ticket, VR...) by the brand's own contract (issue 33).
 */
function settlementOf(method: string, { rates, vouchers }: Terms, installments = 1) {
  const voucher = vouchers.get(method);
  if (voucher) return voucher;
  if (method === 'creditCard') {
    const bp = rates ? (rates.creditBp[Math.min(installments, rates.creditBp.length) - 1] ?? 0) : 0;
    return { days: rates ? rates.settlementDays : DEFAULT_CREDIT_DAYS, bp };
  }
  if (method === 'debitCard') return { days: 1, bp: rates?.debitBp ?? 0 };
  if (PIX_METHODS.has(method)) return { days: 0, bp: rates?.pixBp ?? 0 };
  return { days: 0, bp: 0 };
}

type Flow = {
  salesIn: number;
  byMethod: SalesByMethod;
  receivablesIn: number;
  payablesOut: number;
  projectedIn: number;
  projectedOut: number;
};
const noSales = (): SalesByMethod => ({
  money: 0,
  pix: 0,
  creditCard: 0,
  debitCard: 0,
  voucher: 0,
  other: 0,
});
const emptyFlow = (): Flow => ({
  salesIn: 0,
  byMethod: noSales(),
  receivablesIn: 0,
  payablesOut: 0,
  projectedIn: 0,
  projectedOut: 0,
});

function periodsBetween(from: string, to: string, groupBy: CashFlowQuery['groupBy']): string[] {
  const list: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const period = periodOf(day, groupBy);
    if (list[list.length - 1] !== period) list.push(period);
  }
  return list;
}

/**
 * The cash flow of a period. Realised: sales on their settlement day (card sales after the active fee
 * table's days, net of its rate), crediário installments received, payables paid. Projected: what settles
 * after today, crediário installments pending and payables open by due date. The opening balance is
 * everything realised before `from`.
 */
export async function cashFlow(db: Executor, actor: Actor, query: CashFlowQuery): Promise<CashFlow> {
  const before = previousPeriod(query.from, query.to);
  const current = await periodFlow(db, actor, query);
  const previous = await periodFlow(db, actor, { ...query, ...before });
  return {
    ...current,
    previous: {
      ...before,
      openingCents: previous.openingCents,
      totals: previous.totals,
      closingCents: previous.closingCents,
    },
  };
}

/** The cash flow of one period (`cashFlow` reads it for the period and the one before). */
async function periodFlow(
  db: Executor,
  actor: Actor,
  query: CashFlowQuery,
): Promise<Omit<CashFlow, 'previous'>> {
  const { clientId } = actor;
  const today = await shopToday(db, clientId);
  const terms = await termsOf(db, clientId);
  // One bank account: the bills paid from it and the sales of the methods that land in it (crediário
  // and the bills still to pay are not booked to an account).
  const account = query.accountId ? await findBankAccount(db, actor, query.accountId) : null;
  const lands = (method: string) => !account || account.receives.includes(cashFlowMethodOf(method));
  const [salesRows, installmentRows, receivableRows, payableRows] = [
    account && account.receives.length === 0
      ? []
      : (await salePaymentsByDay(db, clientId, HISTORY_START, query.to)).filter((r) => lands(r.method)),
    lands('creditCard') && !(account && account.receives.length === 0)
      ? await creditInstallmentsByDay(db, clientId, HISTORY_START, query.to)
      : [],
    account ? [] : await receivableFlows(db, clientId, HISTORY_START, query.to),
    await payableFlows(db, clientId, HISTORY_START, query.to, account?.id),
  ];
  const byPeriod = new Map<string, Flow>();
  let opening = 0;
  const add = (day: string, apply: (flow: Flow) => void, realisedNet: number) => {
    if (day < query.from) {
      if (day <= today) opening += realisedNet;
      return;
    }
    if (day > query.to) return;
    const period = periodOf(day, query.groupBy);
    const flow = byPeriod.get(period) ?? emptyFlow();
    apply(flow);
    byPeriod.set(period, flow);
  };
  // A day's sales of a method reach the account on their settlement day, net of the rate; a credit sale in
  // N instalments at the N-instalment rate, one instalment every 30 days from the table's settlement day
  // when the table pays as the instalments fall due (D+30 or more), all at once when it anticipates them.
  const receive = (day: string, amountCents: number, method: string, installments = 1) => {
    const { days, bp } = settlementOf(method, terms, installments);
    const net = amountCents - feeCents(amountCents, bp);
    const group = cashFlowMethodOf(method);
    const parts =
      installments > 1 && days >= DEFAULT_CREDIT_DAYS ? splitInstallments(net, installments) : [net];
    parts.forEach((part, k) => {
      const settles = addDays(day, days + DEFAULT_CREDIT_DAYS * k);
      if (settles <= today)
        add(
          settles,
          (f) => {
            f.salesIn += part;
            f.byMethod[group] += part;
          },
          part,
        );
      else add(settles, (f) => (f.projectedIn += part), 0);
    });
  };
  const inInstallments = new Map<string, number>();
  for (const row of installmentRows) {
    inInstallments.set(row.day, (inInstallments.get(row.day) ?? 0) + row.amountCents);
    receive(row.day, row.amountCents, 'creditCard', row.installments);
  }
  for (const row of salesRows) {
    if (NOT_CASH.has(row.method)) continue;
    const rest = row.amountCents - (row.method === 'creditCard' ? (inInstallments.get(row.day) ?? 0) : 0);
    receive(row.day, rest, row.method);
  }
  for (const row of receivableRows) {
    if (row.receivedCents) add(row.day, (f) => (f.receivablesIn += row.receivedCents), row.receivedCents);
    if (row.dueCents) add(row.day, (f) => (f.projectedIn += row.dueCents), 0);
  }
  for (const row of payableRows) {
    if (row.paidCents) add(row.day, (f) => (f.payablesOut += row.paidCents), -row.paidCents);
    if (row.dueCents) add(row.day, (f) => (f.projectedOut += row.dueCents), 0);
  }
  let balance = opening;
  const totals = {
    salesInCents: 0,
    salesByMethodCents: noSales(),
    receivablesInCents: 0,
    payablesOutCents: 0,
    projectedInCents: 0,
    projectedOutCents: 0,
    netCents: 0,
  };
  const rows: CashFlowRow[] = periodsBetween(query.from, query.to, query.groupBy).map((period) => {
    const f = byPeriod.get(period) ?? emptyFlow();
    const net = f.salesIn + f.receivablesIn - f.payablesOut;
    balance += net + f.projectedIn - f.projectedOut;
    totals.salesInCents += f.salesIn;
    for (const m of CASH_FLOW_METHODS) totals.salesByMethodCents[m] += f.byMethod[m];
    totals.receivablesInCents += f.receivablesIn;
    totals.payablesOutCents += f.payablesOut;
    totals.projectedInCents += f.projectedIn;
    totals.projectedOutCents += f.projectedOut;
    totals.netCents += net;
    return {
      period,
      salesInCents: f.salesIn,
      salesByMethodCents: f.byMethod,
      receivablesInCents: f.receivablesIn,
      payablesOutCents: f.payablesOut,
      projectedInCents: f.projectedIn,
      projectedOutCents: f.projectedOut,
      netCents: net,
      balanceCents: balance,
    };
  });
  return {
    from: query.from,
    to: query.to,
    groupBy: query.groupBy,
    today,
    account: account ? { id: account.id, name: account.name } : null,
    openingCents: opening,
    rows,
    totals,
    closingCents: balance,
  };
}

/** A month's DRE beside the month before (issue 34: the page's and the files' comparison column). */
export async function dreCompared(db: Executor, actor: Actor, month: string): Promise<DreCompared> {
  const current = await dre(db, actor, month);
  return { ...current, previous: await dre(db, actor, monthOf(`${month}-01`, -1)) };
}

/**
 * A competence month's DRE. Receita bruta: the sales' items before discounts plus freight; deductions:
 * discounts, returns and the card fees of the active fee table; CMV: quantity sold x the product's cost;
 * expenses: the month's payables by DRE group (accrual). Purchases (CMV/compras payables) are stock, not
 * expense: they are shown apart, never subtracted twice.
 */
export async function dre(db: Executor, actor: Actor, month: string): Promise<Dre> {
  const { clientId } = actor;
  const figures = await saleFiguresBetween(db, clientId, `${month}-01`, `${monthOf(`${month}-01`, 1)}-01`);
  const terms = await termsOf(db, clientId);
  const expenses = await payableExpensesOfMonth(db, clientId, month);
  const cardFees = figures.payments.reduce(
    (sum, p) => sum + feeCents(p.amountCents, settlementOf(p.method, terms, p.installments).bp),
    0,
  );
  const line = (key: string, label: string, amountCents: number, total = false): DreLine => ({
    key,
    label,
    amountCents,
    total,
  });
  const netRevenue = figures.grossCents - figures.discountsCents - figures.returnsCents - cardFees;
  const grossMargin = netRevenue - figures.cmvCents;
  const expenseLines = DRE_GROUPS.filter((g) => g !== 'cmv').map((g) =>
    line(`expense:${g}`, DRE_GROUP_LABELS[g], -(expenses.get(g) ?? 0)),
  );
  const result = grossMargin + expenseLines.reduce((s, l) => s + l.amountCents, 0);
  return {
    month,
    salesCount: figures.salesCount,
    lines: [
      line('grossRevenue', 'Receita bruta', figures.grossCents),
      line('discounts', '(-) Descontos', -figures.discountsCents),
      line('returns', '(-) Devoluções', -figures.returnsCents),
      line('cardFees', '(-) Taxas de cartão, Pix e vales', -cardFees),
      line('netRevenue', 'Receita líquida', netRevenue, true),
      line('cmv', '(-) CMV (custo das mercadorias vendidas)', -figures.cmvCents),
      line('grossMargin', 'Margem bruta', grossMargin, true),
      ...expenseLines,
      line('result', 'Resultado do mês', result, true),
    ],
    purchasesCents: expenses.get('cmv') ?? 0,
  };
}

const saleEntry = (
  r: { id: number; number: number; day: string; amountCents: number },
  sign: number,
): DreEntry => ({
  kind: 'sale',
  id: r.id,
  date: r.day,
  description: `Venda nº ${r.number}`,
  amountCents: sign * r.amountCents,
});
const returnEntry = (r: {
  saleId: number;
  number: number;
  day: string;
  reason: string;
  amountCents: number;
}): DreEntry => ({
  kind: 'return',
  id: r.saleId,
  date: r.day,
  description: `Devolução da venda nº ${r.number}: ${r.reason}`,
  amountCents: -r.amountCents,
});
/** A return's cost back in stock: it takes its part off the CMV line (issue 34). */
const returnedCostEntry = (r: Parameters<typeof returnEntry>[0]): DreEntry => ({
  ...returnEntry(r),
  description: `Devolução da venda nº ${r.number} (de volta ao estoque)`,
  amountCents: r.amountCents,
});
const payableEntry = (r: {
  id: number;
  dueDate: string;
  description: string;
  amountCents: number;
}): DreEntry => ({
  kind: 'payable',
  id: r.id,
  date: r.dueDate,
  description: r.description,
  amountCents: -r.amountCents,
});

/**
 * Every record behind a DRE line, read `pageSize` at a time by keyset (the drill-down's exports: constant
 * memory whatever the month holds), the same records as `dreEntries` in the same order. The card fees are
 * one record per method and installments (a handful): read at once.
 */
export async function* eachDreEntry(
  db: Executor,
  actor: Actor,
  month: string,
  line: string,
  pageSize = 2000,
): AsyncGenerator<DreEntry> {
  const { clientId } = actor;
  const from = `${month}-01`;
  const toExclusive = `${monthOf(from, 1)}-01`;
  if (line === 'grossRevenue' || line === 'discounts' || line === 'cmv') {
    const figure = line === 'grossRevenue' ? 'gross' : line;
    const sign = line === 'grossRevenue' ? 1 : -1;
    const rows = eachPage(
      (after) => saleEntriesBetween(db, clientId, from, toExclusive, figure, pageSize, { after }),
      (r) => r.id,
      pageSize,
    );
    for await (const r of rows) yield saleEntry(r, sign);
    if (line === 'cmv') {
      const back = eachPage(
        (after) => saleReturnEntriesBetween(db, clientId, from, toExclusive, pageSize, { after }, 'cost'),
        (r) => r.id,
        pageSize,
      );
      for await (const r of back) yield returnedCostEntry(r);
    }
  } else if (line === 'returns') {
    const rows = eachPage(
      (after) => saleReturnEntriesBetween(db, clientId, from, toExclusive, pageSize, { after }),
      (r) => r.id,
      pageSize,
    );
    for await (const r of rows) yield returnEntry(r);
  } else if (line.startsWith('expense:')) {
    const group = line.slice('expense:'.length) as DreGroup;
    const rows = eachPage(
      (after) => payablesOfMonthGroup(db, clientId, month, group, pageSize, { after }),
      (r) => r.id,
      pageSize,
    );
    for await (const r of rows) yield payableEntry(r);
  } else if (line === 'cardFees') yield* (await dreEntries(db, actor, month, line)).entries;
}

/** A DRE line's label and value (the drill-down exports' total row). */
export async function dreLine(
  db: Executor,
  actor: Actor,
  month: string,
  line: string,
): Promise<{ label: string; amountCents: number }> {
  const found = (await dre(db, actor, month)).lines.find((l) => l.key === line);
  return { label: found?.label ?? line, amountCents: found?.amountCents ?? 0 };
}

/**
 * The records behind a DRE line (issue 34: "each line opens the records behind it"): the month's sales
 * with their part of receita bruta, descontos or CMV; the returns; the card, Pix and voucher fees by
 * method and installments (as the DRE computes them, so they add up to the line); the payables of a DRE
 * group. Signed as the line; at most DRE_ENTRIES_MAX, with the count.
 */
export async function dreEntries(
  db: Executor,
  actor: Actor,
  month: string,
  line: string,
  /** The exports pass no limit: every record of the line. */
  max: number = DRE_ENTRIES_MAX,
): Promise<DreEntries> {
  const { clientId } = actor;
  const result = await dre(db, actor, month);
  const dreLine = result.lines.find((l) => l.key === line);
  const from = `${month}-01`;
  const toExclusive = `${monthOf(from, 1)}-01`;
  let count = 0;
  let entries: DreEntry[] = [];
  if (line === 'grossRevenue' || line === 'discounts' || line === 'cmv') {
    const figure = line === 'grossRevenue' ? 'gross' : line;
    const sign = line === 'grossRevenue' ? 1 : -1;
    const found = await saleEntriesBetween(db, clientId, from, toExclusive, figure, max);
    count = found.count;
    entries = found.rows.map((r) => saleEntry(r, sign));
    if (line === 'cmv') {
      // The units the month's returns put back in stock, after the sales.
      const back = await saleReturnEntriesBetween(db, clientId, from, toExclusive, max, undefined, 'cost');
      count += back.count;
      entries = [...entries, ...back.rows.map(returnedCostEntry)].slice(0, max);
    }
  } else if (line === 'returns') {
    const found = await saleReturnEntriesBetween(db, clientId, from, toExclusive, max);
    count = found.count;
    entries = found.rows.map(returnEntry);
  } else if (line === 'cardFees') {
    const figures = await saleFiguresBetween(db, clientId, from, toExclusive);
    const terms = await termsOf(db, clientId);
    entries = figures.payments
      .map((p) => ({ ...p, fee: feeCents(p.amountCents, settlementOf(p.method, terms, p.installments).bp) }))
      .filter((p) => p.fee !== 0)
      .map((p) => {
        const label = PAYMENT_METHOD_LABELS[p.method as PaymentMethod] ?? p.method;
        return {
          kind: 'fee' as const,
          id: null,
          date: null,
          description: `${label}${p.method === 'creditCard' ? ` ${p.installments}x` : ''}: ${formatCents(p.amountCents)} recebidos`,
          amountCents: -p.fee,
        };
      });
    count = entries.length;
  } else if (line.startsWith('expense:')) {
    const group = line.slice('expense:'.length) as DreGroup;
    const found = await payablesOfMonthGroup(db, clientId, month, group, max);
    count = found.count;
    entries = found.rows.map(payableEntry);
  }
  return {
    month,
    line,
    label: dreLine?.label ?? line,
    amountCents: dreLine?.amountCents ?? 0,
    count,
    entries,
  };
}

/**
 * The day's close (issue 34; OSPOS #2645): the day's sales by method (the daily summary), the bills paid
 * that day and the sales minus those bills.
 */
export async function dayClose(db: Executor, actor: Actor, date: string): Promise<DayClose> {
  const sales = (await salePaymentsByDay(db, actor.clientId, date, date)).filter((r) => r.amountCents !== 0);
  const expenses = await paymentsOfDay(db, actor.clientId, date);
  const salesCents = sales.reduce((s, r) => s + r.amountCents, 0);
  const expensesCents = expenses.reduce((s, r) => s + r.amountCents, 0);
  return {
    date,
    salesByMethod: sales.map((r) => ({
      method: r.method,
      label: PAYMENT_METHOD_LABELS[r.method as PaymentMethod] ?? r.method,
      amountCents: r.amountCents,
    })),
    salesCents,
    expenses,
    expensesCents,
    netCents: salesCents - expensesCents,
  };
}
