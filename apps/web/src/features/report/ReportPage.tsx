import { addDays } from '@balcao/core/date';
import { reportApi } from '@balcao/core/endpoints/report';
import { CASH_FLOW_GROUPING_LABELS, CASH_FLOW_GROUPINGS, type CashFlowGrouping } from '@balcao/core/finance';
import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import {
  changeLabel,
  REPORT_SECTION_LABELS,
  REPORT_SECTIONS,
  type ReportSection,
  type ReportSummary,
  type SalesReport,
  WEEKDAY_LABELS,
} from '@balcao/core/report';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { ptBRLocaleText } from '@mui/x-charts/locales';
import { type ReactNode, useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListHeader, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { download } from '../../lib/client.ts';
import { formatDate, shopToday } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { type ReportPageQuery, useSalesReport } from './api.ts';
import { PREVIOUS_HEAD, PreviousCell, TotalRow } from './Compared.tsx';
import { ExportBar } from './ExportBar.tsx';
import { StockTurnoverSection } from './StockTurnoverSection.tsx';

function queryFromParams(params: URLSearchParams): ReportPageQuery {
  const today = shopToday();
  const from = readParam.date(params, 'from', today) ?? today;
  return {
    from,
    to: readParam.date(params, 'to', today) ?? today,
    groupBy: readParam.oneOf(params, 'groupBy', CASH_FLOW_GROUPINGS) ?? ('day' as CashFlowGrouping),
  };
}

const dateLabel = (iso: string) => formatDate(`${iso}T12:00:00Z`);
const percent = (bp: number) => `${(bp / 100).toFixed(1).replace('.', ',')}%`;
/** The rows of the product table on screen; the export gives them all. */
const PRODUCTS_SHOWN = 50;

/** Quick periods an owner picks most. */
function presets(today: string): { label: string; from: string; to: string; groupBy: CashFlowGrouping }[] {
  return [
    { label: 'Hoje', from: today, to: today, groupBy: 'day' },
    { label: 'Últimos 7 dias', from: addDays(today, -6), to: today, groupBy: 'day' },
    { label: 'Este mês', from: `${today.slice(0, 8)}01`, to: today, groupBy: 'day' },
    { label: 'Últimos 12 meses', from: `${addDays(today, -364).slice(0, 8)}01`, to: today, groupBy: 'month' },
  ];
}

function Figure({
  label,
  value,
  previous,
  format = formatCents,
  testId,
  lowerIsBetter = false,
}: {
  label: string;
  value: number;
  previous: number;
  format?: (v: number) => string;
  testId: string;
  lowerIsBetter?: boolean;
}) {
  const change = changeLabel(value, previous);
  const better = lowerIsBetter ? value < previous : value > previous;
  return (
    <Paper sx={{ p: 1.5, minWidth: 150, flex: '1 1 150px' }} data-testid={testId}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p">
        {format(value)}
      </Typography>
      <Typography
        variant="caption"
        color={change === null ? 'text.secondary' : better ? 'success.main' : 'error'}
      >
        {change === null ? 'sem período anterior' : `${change} (antes ${format(previous)})`}
      </Typography>
    </Paper>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Summary({ s, p }: { s: ReportSummary; p: ReportSummary }) {
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5 }}>
      <Figure label="Valor líquido" value={s.netCents} previous={p.netCents} testId="report-net" />
      <Figure
        label="Vendas"
        value={s.salesCount}
        previous={p.salesCount}
        format={String}
        testId="report-count"
      />
      <Figure
        label="Ticket médio"
        value={s.averageTicketCents}
        previous={p.averageTicketCents}
        testId="report-ticket"
      />
      <Figure label="Margem" value={s.marginCents} previous={p.marginCents} testId="report-margin" />
      <Figure
        label="Descontos"
        value={s.discountsCents}
        previous={p.discountsCents}
        testId="report-discounts"
        lowerIsBetter
      />
      <Figure
        label="Devoluções"
        value={s.returnsCents}
        previous={p.returnsCents}
        testId="report-returns"
        lowerIsBetter
      />
      <Figure
        label={`Canceladas (${s.canceledCount})`}
        value={s.canceledCents}
        previous={p.canceledCents}
        testId="report-canceled"
        lowerIsBetter
      />
    </Stack>
  );
}

/** Weekday x hour on the shop's clock: a cell's shade is its share of the busiest cell. */
function HeatMap({ cells }: { cells: SalesReport['heatMap'] }) {
  const byKey = new Map(cells.map((c) => [`${c.weekday}-${c.hour}`, c]));
  const max = Math.max(1, ...cells.map((c) => c.netCents));
  const hours = Array.from({ length: 24 }, (_, h) => h);
  return (
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Mapa de calor das vendas">
      <Box
        component="table"
        sx={{ borderCollapse: 'collapse', fontSize: 11, '& td, & th': { p: 0, textAlign: 'center' } }}
      >
        <thead>
          <tr>
            <th />
            {hours.map((h) => (
              <Box component="th" key={h} sx={{ minWidth: 26, fontWeight: 400, color: 'text.secondary' }}>
                {h}h
              </Box>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKDAY_LABELS.map((day, weekday) => (
            <tr key={day}>
              <Box component="th" sx={{ pr: 1, fontWeight: 400, textAlign: 'left !important' }}>
                {day}
              </Box>
              {hours.map((hour) => {
                const cell = byKey.get(`${weekday}-${hour}`);
                const title = cell
                  ? `${day} ${hour}h: ${plural(cell.salesCount, 'venda', 'vendas')}, ${formatCents(cell.netCents)}`
                  : `${day} ${hour}h: nenhuma venda`;
                return (
                  <Box
                    component="td"
                    key={hour}
                    title={title}
                    aria-label={title}
                    sx={(theme) => ({
                      height: 22,
                      border: `1px solid ${theme.palette.divider}`,
                      bgcolor: cell
                        ? alpha(theme.palette.primary.main, 0.15 + (0.85 * Math.max(cell.netCents, 0)) / max)
                        : undefined,
                    })}
                  />
                );
              })}
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

/** The sales report's exports: the chosen table as CSV or XLSX, the whole report as PDF. */
function SalesExportBar({ query, onError }: { query: ReportPageQuery; onError: (error: unknown) => void }) {
  const [section, setSection] = useState<ReportSection>('product');
  const name = `relatorio-${section}-${query.from}-${query.to}`;
  return (
    <ExportBar
      select={{
        label: 'Relatório a exportar',
        value: section,
        options: REPORT_SECTIONS,
        labels: REPORT_SECTION_LABELS,
        onChange: setSection,
      }}
      actions={[
        {
          kind: 'csv',
          label: 'Exportar CSV',
          start: (onProgress) =>
            download(
              reportApi.salesCsv,
              { query: { ...query, section } },
              `${name}.csv`,
              undefined,
              onProgress,
            ),
        },
        {
          kind: 'xlsx',
          label: 'Exportar XLSX',
          busyLabel: 'Exportando...',
          start: (onProgress) =>
            download(
              reportApi.salesXlsx,
              { query: { ...query, section } },
              `${name}.xlsx`,
              undefined,
              onProgress,
            ),
        },
        {
          kind: 'pdf',
          label: 'Baixar PDF',
          busyLabel: 'Gerando...',
          start: (onProgress) =>
            download(
              reportApi.salesPdf,
              { query },
              `relatorio-vendas-${query.from}-${query.to}.pdf`,
              undefined,
              onProgress,
            ),
        },
      ]}
      onError={onError}
    />
  );
}

function Report({ report }: { report: SalesReport }) {
  const products = report.byProduct.slice(0, PRODUCTS_SHOWN);
  const abcCounts = { A: 0, B: 0, C: 0 };
  for (const p of report.byProduct) abcCounts[p.abc]++;
  // The items' revenue (no freight) of each period: the product and category tables' totals.
  const itemsRevenue = report.summary.marginCents + report.summary.costCents;
  const previousItemsRevenue = report.previous.marginCents + report.previous.costCents;
  return (
    <Stack spacing={3}>
      <Summary s={report.summary} p={report.previous} />
      <Typography variant="body2" color="text.secondary">
        Comparado com {dateLabel(report.previous.from)} a {dateLabel(report.previous.to)}. Valores líquidos de
        devoluções; vendas canceladas ficam de fora.
      </Typography>
      {report.summary.salesCount === 0 ? (
        <Typography>Nenhuma venda no período.</Typography>
      ) : (
        <>
          <Paper sx={{ p: 2 }}>
            <Typography component="h2" variant="h6">
              Vendas por {CASH_FLOW_GROUPING_LABELS[report.groupBy].toLowerCase()}
            </Typography>
            <ChartsLocalizationProvider localeText={ptBRLocaleText}>
              <BarChart
                height={240}
                margin={{ left: 8, right: 8 }}
                xAxis={[
                  {
                    scaleType: 'band',
                    data: report.byPeriod.map((r) =>
                      report.groupBy === 'month'
                        ? `${r.period.slice(5, 7)}/${r.period.slice(0, 4)}`
                        : dateLabel(r.period).slice(0, 5),
                    ),
                  },
                ]}
                yAxis={[{ valueFormatter: (v: number) => formatCents(v).replace(/,00$/, ''), width: 80 }]}
                series={[
                  {
                    data: report.byPeriod.map((r) => r.netCents),
                    label: 'Valor líquido',
                    valueFormatter: (v) => formatCents(v ?? 0),
                  },
                ]}
                hideLegend
              />
            </ChartsLocalizationProvider>
          </Paper>
          <Section title="Vendas por dia da semana e hora">
            <HeatMap cells={report.heatMap} />
          </Section>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <Box sx={{ flex: 1 }}>
              <Section title="Por forma de pagamento">
                <ListTable
                  label="Por forma de pagamento"
                  head={['Forma', alignRight('Valor'), alignRight(PREVIOUS_HEAD)]}
                >
                  {report.byMethod.map((m) => (
                    <TableRow key={m.method}>
                      <TableCell>{m.label}</TableCell>
                      <TableCell align="right">{formatCents(m.amountCents)}</TableCell>
                      <PreviousCell current={m.amountCents} previous={m.previousAmountCents} />
                    </TableRow>
                  ))}
                  <TotalRow
                    label="Total"
                    before={0}
                    current={report.byMethod.reduce((sum, m) => sum + m.amountCents, 0)}
                    previous={report.previous.netCents}
                  />
                </ListTable>
              </Section>
            </Box>
            <Box sx={{ flex: 1 }}>
              <Section title="Por origem">
                <ListTable
                  label="Por origem"
                  head={['Origem', alignRight('Vendas'), alignRight('Valor'), alignRight(PREVIOUS_HEAD)]}
                >
                  {report.byOrigin.map((o) => (
                    <TableRow key={o.origin}>
                      <TableCell>{o.label}</TableCell>
                      <TableCell align="right">{o.salesCount}</TableCell>
                      <TableCell align="right">{formatCents(o.netCents)}</TableCell>
                      <PreviousCell current={o.netCents} previous={o.previousNetCents} />
                    </TableRow>
                  ))}
                  <TotalRow
                    label="Total"
                    before={1}
                    current={report.summary.netCents}
                    previous={report.previous.netCents}
                  />
                </ListTable>
              </Section>
            </Box>
          </Stack>
          <Section title="Por vendedor">
            <ListTable
              label="Por vendedor"
              head={[
                'Vendedor',
                alignRight('Vendas'),
                alignRight('Valor líquido'),
                alignRight('Ticket médio'),
                alignRight('Descontos'),
                alignRight(PREVIOUS_HEAD),
              ]}
            >
              {report.bySeller.map((s) => (
                <TableRow key={s.userId}>
                  <TableCell>{s.name}</TableCell>
                  <TableCell align="right">{s.salesCount}</TableCell>
                  <TableCell align="right">{formatCents(s.netCents)}</TableCell>
                  <TableCell align="right">{formatCents(s.averageTicketCents)}</TableCell>
                  <TableCell align="right">{formatCents(s.discountsCents)}</TableCell>
                  <PreviousCell current={s.netCents} previous={s.previousNetCents} />
                </TableRow>
              ))}
              <TotalRow
                label="Total"
                before={1}
                current={report.summary.netCents}
                previous={report.previous.netCents}
                after={2}
              />
            </ListTable>
          </Section>
          <Section title="Por categoria">
            <ListTable
              label="Por categoria"
              head={[
                'Categoria',
                alignRight('Quantidade'),
                alignRight('Receita'),
                alignRight('Custo'),
                alignRight('Margem'),
                alignRight('Receita anterior'),
              ]}
            >
              {report.byCategory.map((c) => (
                <TableRow key={c.categoryId ?? 'none'}>
                  <TableCell>{c.name}</TableCell>
                  <TableCell align="right">{String(c.quantity).replace('.', ',')}</TableCell>
                  <TableCell align="right">{formatCents(c.revenueCents)}</TableCell>
                  <TableCell align="right">{formatCents(c.costCents)}</TableCell>
                  <TableCell align="right">{formatCents(c.marginCents)}</TableCell>
                  <PreviousCell current={c.revenueCents} previous={c.previousRevenueCents} />
                </TableRow>
              ))}
              <TotalRow
                label="Total"
                before={1}
                current={itemsRevenue}
                previous={previousItemsRevenue}
                after={2}
              />
            </ListTable>
          </Section>
          <Section title="Por produto (curva ABC)">
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              Curva A: {plural(abcCounts.A, 'produto', 'produtos')} (80% da receita); B: {abcCounts.B}; C:{' '}
              {abcCounts.C}.
              {report.byProduct.length > PRODUCTS_SHOWN
                ? ` Mostrando os ${PRODUCTS_SHOWN} primeiros de ${report.byProduct.length}; exporte para ver todos.`
                : ''}
            </Typography>
            <ListTable
              label="Por produto"
              head={[
                'Produto',
                alignRight('Quantidade'),
                alignRight('Receita'),
                alignRight('Custo'),
                alignRight('Margem'),
                alignRight('Participação'),
                'Curva',
                alignRight('Receita anterior'),
              ]}
            >
              {products.map((p) => (
                <TableRow key={p.productId ?? 'quick'}>
                  <TableCell>
                    {p.name}
                    {p.categoryName ? (
                      <Typography variant="caption" color="text.secondary" component="span">
                        {' '}
                        · {p.categoryName}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell align="right">{String(p.quantity).replace('.', ',')}</TableCell>
                  <TableCell align="right">{formatCents(p.revenueCents)}</TableCell>
                  <TableCell align="right">{formatCents(p.costCents)}</TableCell>
                  <TableCell align="right">{formatCents(p.marginCents)}</TableCell>
                  <TableCell align="right">{percent(p.shareBp)}</TableCell>
                  <TableCell>
                    <Chip size="small" label={p.abc} color={p.abc === 'A' ? 'primary' : 'default'} />
                  </TableCell>
                  <PreviousCell current={p.revenueCents} previous={p.previousRevenueCents} />
                </TableRow>
              ))}
              <TotalRow
                label="Total"
                before={1}
                current={itemsRevenue}
                previous={previousItemsRevenue}
                after={4}
              />
            </ListTable>
          </Section>
          {report.canceled.length > 0 ? (
            <Section title="Canceladas por usuário">
              <ListTable
                label="Canceladas por usuário"
                head={['Cancelada por', alignRight('Vendas'), alignRight('Valor')]}
              >
                {report.canceled.map((c) => (
                  <TableRow key={c.userId ?? 'none'}>
                    <TableCell>{c.name}</TableCell>
                    <TableCell align="right">{c.salesCount}</TableCell>
                    <TableCell align="right">{formatCents(c.netCents)}</TableCell>
                  </TableRow>
                ))}
              </ListTable>
            </Section>
          ) : null}
        </>
      )}
    </Stack>
  );
}

/**
 * Financeiro > Relatórios (issue 34): the period's sales net of returns and cancels against the period
 * before, by period, hour and weekday, method, origin, seller, category and product (ABC curve); each
 * table exported whole as CSV, the whole report as PDF.
 */
export default function ReportPage() {
  const { state, show, close } = useFeedback();
  const { query, update } = useListParams(queryFromParams);
  const report = useSalesReport(query);
  const today = shopToday();
  const failed = (error: unknown) =>
    show({ severity: 'error', title: 'Erro ao exportar', message: errorMessage(error) });
  return (
    <Box>
      <ListHeader title="Relatórios" />
      <Stack spacing={1.5} sx={{ mb: 2 }}>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {presets(today).map((p) => (
            <Chip
              key={p.label}
              label={p.label}
              color={query.from === p.from && query.to === p.to ? 'primary' : 'default'}
              onClick={() => update({ from: p.from, to: p.to, groupBy: p.groupBy })}
            />
          ))}
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField
            label="De"
            type="date"
            size="small"
            value={query.from}
            onChange={(e) => e.target.value && update({ from: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Até"
            type="date"
            size="small"
            value={query.to}
            onChange={(e) => e.target.value && update({ to: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Agrupar por"
            select
            size="small"
            value={query.groupBy}
            onChange={(e) => update({ groupBy: e.target.value })}
            sx={{ minWidth: 140 }}
          >
            {CASH_FLOW_GROUPINGS.map((g) => (
              <MenuItem key={g} value={g}>
                {CASH_FLOW_GROUPING_LABELS[g]}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <SalesExportBar query={query} onError={failed} />
      </Stack>
      {report.isPending ? (
        <Loading />
      ) : report.isError ? (
        <LoadError
          what="Não foi possível carregar o relatório."
          error={report.error}
          onRetry={() => report.refetch()}
        />
      ) : (
        <Report report={report.data} />
      )}
      <Box sx={{ mt: 3 }}>
        <StockTurnoverSection query={query} onError={failed} />
      </Box>
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
