import { formatDateBr } from '@balcao/core/date';
import { financeApi } from '@balcao/core/endpoints/finance';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import Papa from 'papaparse';
import type { AppContext } from '../../context.ts';
import { clients } from '../../db/schema.ts';
import { sendCsvStream } from '../../lib/csv.ts';
import { route } from '../../lib/endpoint.ts';
import { shopToday } from '../../lib/shopToday.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { drePdf } from './pdf.ts';
import { cashFlow, dayClose, dre } from './service.ts';

const cents = (value: number) => (value / 100).toFixed(2).replace('.', ',');
const csv = (rows: (string | number)[][]) => `${Papa.unparse(rows, { delimiter: ';' })}\r\n`;

async function* each<T>(items: T[]) {
  yield* items;
}

const MONTHS = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];
const monthLabel = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} de ${month.slice(0, 4)}`;

/** Cash flow and DRE (issue 34): the handlers of `financeApi`. */
export function financeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { db } = ctx;

    route(app, financeApi.cashFlow, (request) => cashFlow(db, sessionOf(request), request.query));

    route(app, financeApi.cashFlowExport, async (request, reply) => {
      const actor = sessionOf(request);
      const flow = await cashFlow(db, actor, request.query);
      return sendCsvStream(reply, 'fluxo-de-caixa', {
        header: csv([
          [
            'Período',
            'Vendas recebidas',
            'Crediário recebido',
            'Contas pagas',
            'A receber (previsto)',
            'A pagar (previsto)',
            'Saldo realizado',
            'Saldo acumulado',
          ],
        ]),
        rows: each(flow.rows),
        lines: (batch) =>
          batch.length
            ? csv(
                batch.map((r) => [
                  formatDateBr(r.period),
                  cents(r.salesInCents),
                  cents(r.receivablesInCents),
                  cents(r.payablesOutCents),
                  cents(r.projectedInCents),
                  cents(r.projectedOutCents),
                  cents(r.netCents),
                  cents(r.balanceCents),
                ]),
              )
            : '',
        today: flow.today,
        fileName: `fluxo-de-caixa-${flow.from}-${flow.to}.csv`,
      });
    });

    route(app, financeApi.dayClose, (request) => dayClose(db, sessionOf(request), request.query.date));

    route(app, financeApi.dre, (request) => dre(db, sessionOf(request), request.query.month));

    route(app, financeApi.dreExport, async (request, reply) => {
      const actor = sessionOf(request);
      const result = await dre(db, actor, request.query.month);
      return sendCsvStream(reply, 'dre', {
        header: csv([['Linha', 'Valor']]),
        rows: each(result.lines),
        lines: (batch) => (batch.length ? csv(batch.map((l) => [l.label, cents(l.amountCents)])) : ''),
        today: await shopToday(db, actor.clientId),
        fileName: `dre-${result.month}.csv`,
      });
    });

    route(app, financeApi.drePdf, async (request, reply) => {
      const actor = sessionOf(request);
      const result = await dre(db, actor, request.query.month);
      const [client] = await db
        .select({ name: clients.name })
        .from(clients)
        .where(eq(clients.id, actor.clientId));
      const pdf = await drePdf(client?.name ?? '', result, monthLabel(result.month));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="dre-${result.month}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    });
  };
}
