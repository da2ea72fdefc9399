import { addDays, formatDateBr } from '@balcao/core/date';
import { FEE_MESSAGES, type SimulatorMode } from '@balcao/core/fees';
import { formatCents } from '@balcao/core/money';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tab from '@mui/material/Tab';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { shopToday } from '../../lib/format.ts';
import type { SimRow } from './simulation.ts';
import { type FeeSource, sourceDateLine } from './sources.ts';

const FeeChart = lazy(() => import('./FeeChart.tsx'));

/** Money stays on one line; a narrow screen scrolls the table sideways. */
const NO_WRAP = { '& td, & th': { whiteSpace: 'nowrap' } };

const percent = (value: number) => `${value.toFixed(2).replace('.', ',')}%`;
const dayOf = (days: number) => formatDateBr(addDays(shopToday(), days));

/** What the main figure of a row is, per mode. */
const MAIN_LABEL: Record<SimulatorMode, string> = {
  receive: 'Líquido',
  charge: 'Cobrar',
  buyer: 'Total do comprador',
};

function BestChip() {
  return <Chip size="small" color="success" label="Melhor" sx={{ ml: 1, height: 20 }} />;
}

/** Up to three tables side by side: each row's main figure, the best marked. */
function CompareTable({
  sources,
  rows,
  mode,
}: {
  sources: FeeSource[];
  rows: SimRow[];
  mode: SimulatorMode;
}) {
  return (
    <ListTable
      label="Comparação das adquirentes"
      sx={NO_WRAP}
      head={['Parcelas', ...sources.map((s) => alignRight(`${s.label}: ${MAIN_LABEL[mode]}`))]}
    >
      {rows.map((row) => (
        <TableRow key={row.key} data-row={row.label}>
          <TableCell component="th" scope="row">
            {row.label}
          </TableCell>
          {row.cells.map((cell, i) => {
            const best = row.best.includes(i);
            return (
              <TableCell
                key={sources[i].id}
                align="right"
                data-best={best || undefined}
                sx={{ fontWeight: best ? 700 : undefined, whiteSpace: 'nowrap' }}
              >
                {cell.main === null ? '—' : formatCents(cell.main)}
                {cell.quote && mode !== 'buyer' && (
                  <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                    {percent(cell.quote.feePercent)}
                  </Typography>
                )}
                {best && <BestChip />}
              </TableCell>
            );
          })}
        </TableRow>
      ))}
    </ListTable>
  );
}

/** Every row of one table at once: gross, fee in R$ and %, net, installment value, settlement date. */
function DetailTable({
  source,
  index,
  rows,
  mode,
}: {
  source: FeeSource;
  index: number;
  rows: SimRow[];
  mode: SimulatorMode;
}) {
  if (mode === 'buyer') {
    const priced = source.rates.buyerInterestRate > 0;
    return (
      <>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {priced
            ? `Juros do comprador de ${percent(source.rates.buyerInterestRate)} a.m. (tabela Price); a loja recebe como à vista em 1x.`
            : 'Sem juros da adquirente: a taxa de cada parcela é repassada ao preço, e a loja recebe o preço.'}
        </Typography>
        <ListTable
          label={`Juros do comprador: ${source.label}`}
          sx={NO_WRAP}
          head={[
            'Parcelas',
            alignRight('Valor da parcela'),
            alignRight('Total do comprador'),
            alignRight('Acréscimo'),
            alignRight('Loja recebe'),
          ]}
        >
          {rows.map((row) => {
            const buyer = row.cells[index]?.buyer;
            if (!buyer) return null;
            return (
              <TableRow key={row.key} data-row={row.label}>
                <TableCell component="th" scope="row">
                  {row.label}
                </TableCell>
                <TableCell align="right">{formatCents(buyer.installmentCents)}</TableCell>
                <TableCell align="right">{formatCents(buyer.totalCents)}</TableCell>
                <TableCell align="right">{formatCents(buyer.interestCents)}</TableCell>
                <TableCell align="right">{formatCents(buyer.netCents)}</TableCell>
              </TableRow>
            );
          })}
        </ListTable>
      </>
    );
  }
  return (
    <ListTable
      label={`Simulação: ${source.label}`}
      sx={NO_WRAP}
      head={[
        'Parcelas',
        alignRight('Bruto'),
        alignRight('Taxa (R$)'),
        alignRight('Taxa (%)'),
        alignRight('Líquido'),
        alignRight('Valor da parcela'),
        'Recebimento',
      ]}
    >
      {rows.map((row) => {
        const cell = row.cells[index];
        if (!cell) return null;
        const q = cell.quote;
        return (
          <TableRow key={row.key} data-row={row.label}>
            <TableCell component="th" scope="row">
              {row.label}
            </TableCell>
            {q ? (
              <>
                <TableCell align="right">{formatCents(q.grossCents)}</TableCell>
                <TableCell align="right">{formatCents(q.feeCents)}</TableCell>
                <TableCell align="right">{percent(q.feePercent)}</TableCell>
                <TableCell align="right" sx={{ fontWeight: 700 }}>
                  {formatCents(q.netCents)}
                </TableCell>
                <TableCell align="right">
                  {q.installments > 1
                    ? `${q.installments}x de ${formatCents(q.installmentCents)}`
                    : formatCents(q.grossCents)}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{dayOf(q.settlementDays)}</TableCell>
              </>
            ) : (
              <TableCell colSpan={6}>
                {/* A rate the table does not have is "not offered", never the 100%-rate message (issue 30). */}
                {(row.installments !== null && row.installments > source.rates.creditRates.length) ||
                (row.key === 'debit' && source.rates.debitRate === null) ||
                (row.key === 'pix' && source.rates.pixRate === null)
                  ? 'Não oferecido nesta tabela'
                  : mode === 'charge'
                    ? FEE_MESSAGES.noRate
                    : '—'}
              </TableCell>
            )}
          </TableRow>
        );
      })}
    </ListTable>
  );
}

/** The answers: the side-by-side comparison (two or three tables), each table's rows, and the chart. */
export function SimulationResults({
  sources,
  rows,
  mode,
}: {
  sources: FeeSource[];
  rows: SimRow[];
  mode: SimulatorMode;
}) {
  const [tab, setTab] = useState(0);
  const shown = Math.min(tab, sources.length - 1);
  const credit = rows.filter((r) => r.installments !== null);
  return (
    <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
      {sources.length > 1 && <CompareTable sources={sources} rows={rows} mode={mode} />}
      <Box sx={{ minWidth: 0 }}>
        {sources.length > 1 && (
          <Tabs
            value={shown}
            onChange={(_e, v: number) => setTab(v)}
            variant="scrollable"
            aria-label="Tabela detalhada"
          >
            {sources.map((s) => (
              <Tab key={s.id} label={s.label} />
            ))}
          </Tabs>
        )}
        <Typography variant="caption" color="text.secondary" component="p" sx={{ my: 1 }}>
          {sources[shown].acquirer} · {sourceDateLine(sources[shown])}
          {sources[shown].note ? ` · ${sources[shown].note}` : ''}
        </Typography>
        <DetailTable source={sources[shown]} index={shown} rows={rows} mode={mode} />
      </Box>
      <Suspense fallback={<Loading text="Carregando gráfico..." />}>
        <FeeChart
          installments={credit.map((r) => r.installments ?? 0)}
          yLabel={MAIN_LABEL[mode]}
          series={sources.map((s, i) => ({ label: s.label, values: credit.map((r) => r.cells[i].main) }))}
        />
      </Suspense>
    </Box>
  );
}
