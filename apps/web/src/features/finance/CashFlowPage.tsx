import { CASH_FLOW_METHOD_LABELS, CASH_FLOW_METHODS } from '@balcao/core/cashFlowMethods';
import { addDays } from '@balcao/core/date';
import { financeApi } from '@balcao/core/endpoints/finance';
import {
  CASH_FLOW_GROUPING_LABELS,
  CASH_FLOW_GROUPINGS,
  type CashFlow,
  type CashFlowGrouping,
} from '@balcao/core/finance';
import { formatCents } from '@balcao/core/money';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { ptBRLocaleText } from '@mui/x-charts/locales';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListHeader, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { download } from '../../lib/client.ts';
import { formatDate, shopToday } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useBankAccounts } from '../payable/index.ts';
import { Change, ExportBar } from '../report/index.ts';
import { useCashFlow } from './api.ts';

function queryFromParams(params: URLSearchParams) {
  const today = shopToday();
  return {
    from: readParam.date(params, 'from', addDays(today, -7)) ?? addDays(today, -7),
    to: readParam.date(params, 'to', addDays(today, 30)) ?? addDays(today, 30),
    groupBy: readParam.oneOf(params, 'groupBy', CASH_FLOW_GROUPINGS) ?? ('day' as CashFlowGrouping),
    accountId: readParam.id(params, 'accountId'),
  };
}

const money = (v: number | null) => formatCents(v ?? 0);

const label = (period: string) => formatDate(`${period}T12:00:00Z`);

/** The period of the same length just before: what came in, went out and the balances, with the change. */
function PreviousFlow({ flow }: { flow: CashFlow }) {
  const p = flow.previous;
  const inCents = flow.totals.salesInCents + flow.totals.receivablesInCents;
  const previousIn = p.totals.salesInCents + p.totals.receivablesInCents;
  return (
    <Typography variant="body2" color="text.secondary" aria-label="Período anterior">
      {`Período anterior (${label(p.from)} a ${label(p.to)}): saldo inicial ${formatCents(p.openingCents)}; `}
      {`entradas ${formatCents(previousIn)} (`}
      <Change current={inCents} previous={previousIn} />
      {`); saídas ${formatCents(p.totals.payablesOutCents)} (`}
      <Change current={flow.totals.payablesOutCents} previous={p.totals.payablesOutCents} lowerIsBetter />
      {`); saldo no fim ${formatCents(p.closingCents)}.`}
    </Typography>
  );
}

/** Financeiro > Fluxo de caixa (issue 34): realised and projected money by day, week or month. */
export default function CashFlowPage() {
  const { state, show, close } = useFeedback();
  const { query, update } = useListParams(queryFromParams);
  const flow = useCashFlow(query);
  const accounts = useBankAccounts();
  // The methods the period received money by: their columns and the chart's stacked series.
  const methods = flow.data
    ? CASH_FLOW_METHODS.filter((m) => flow.data.rows.some((r) => r.salesByMethodCents[m] !== 0))
    : [];
  const failed = (error: unknown) =>
    show({ severity: 'error', title: 'Erro ao exportar', message: errorMessage(error) });
  const file = `fluxo-de-caixa-${query.from}-${query.to}`;
  return (
    <Box>
      <ListHeader title="Fluxo de caixa">
        <ExportBar
          actions={[
            {
              kind: 'csv',
              label: 'Exportar CSV',
              start: (onProgress) =>
                download(financeApi.cashFlowExport, { query }, `${file}.csv`, undefined, onProgress),
            },
            {
              kind: 'xlsx',
              label: 'Exportar XLSX',
              busyLabel: 'Exportando...',
              start: (onProgress) =>
                download(financeApi.cashFlowXlsx, { query }, `${file}.xlsx`, undefined, onProgress),
            },
            {
              kind: 'pdf',
              label: 'Baixar PDF',
              busyLabel: 'Gerando...',
              start: (onProgress) =>
                download(financeApi.cashFlowPdf, { query }, `${file}.pdf`, undefined, onProgress),
            },
          ]}
          onError={failed}
        />
      </ListHeader>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <TextField
          label="De"
          type="date"
          size="small"
          value={query.from}
          onChange={(e) => update({ from: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="Até"
          type="date"
          size="small"
          value={query.to}
          onChange={(e) => update({ to: e.target.value })}
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
        <TextField
          label="Conta"
          select
          size="small"
          value={query.accountId ? String(query.accountId) : ''}
          onChange={(e) => update({ accountId: e.target.value })}
          sx={{ minWidth: 200 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">Todas as contas</MenuItem>
          {(accounts.data ?? []).map((a) => (
            <MenuItem key={a.id} value={String(a.id)}>
              {a.name}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {query.accountId && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Com uma conta escolhida, o fluxo mostra as contas pagas por ela e as vendas das formas que caem nela
          (no cadastro da conta). O crediário e o que está a pagar não são separados por conta.
        </Alert>
      )}
      {flow.isPending ? (
        <Loading />
      ) : flow.isError ? (
        <LoadError
          what="Não foi possível carregar o fluxo de caixa."
          error={flow.error}
          onRetry={() => flow.refetch()}
        />
      ) : (
        <Stack spacing={2}>
          <Stack direction="row" spacing={3} sx={{ flexWrap: 'wrap' }} aria-label="Resumo">
            <Typography>
              Saldo inicial: <strong>{formatCents(flow.data.openingCents)}</strong>
            </Typography>
            <Typography color="success.main">
              Entradas:{' '}
              <strong>
                {formatCents(flow.data.totals.salesInCents + flow.data.totals.receivablesInCents)}
              </strong>
            </Typography>
            <Typography color="error">
              Saídas: <strong>{formatCents(flow.data.totals.payablesOutCents)}</strong>
            </Typography>
            <Typography>
              Saldo previsto no fim: <strong>{formatCents(flow.data.closingCents)}</strong>
            </Typography>
          </Stack>
          <PreviousFlow flow={flow.data} />
          <Paper sx={{ p: 2 }}>
            <ChartsLocalizationProvider localeText={ptBRLocaleText}>
              <BarChart
                height={260}
                margin={{ left: 8, right: 8 }}
                xAxis={[{ scaleType: 'band', data: flow.data.rows.map((r) => label(r.period).slice(0, 5)) }]}
                yAxis={[{ valueFormatter: (v: number) => formatCents(v).replace(/,00$/, ''), width: 80 }]}
                series={[
                  // The sales received stacked by payment method, then the crediário received.
                  ...methods.map((m) => ({
                    id: `sales-${m}`,
                    data: flow.data.rows.map((r) => r.salesByMethodCents[m]),
                    label: CASH_FLOW_METHOD_LABELS[m],
                    stack: 'in',
                    valueFormatter: money,
                  })),
                  {
                    id: 'receivables',
                    data: flow.data.rows.map((r) => r.receivablesInCents),
                    label: 'Crediário',
                    stack: 'in',
                    valueFormatter: money,
                  },
                  {
                    data: flow.data.rows.map((r) => r.projectedInCents),
                    label: 'A receber',
                    stack: 'in',
                    valueFormatter: (v) => formatCents(v ?? 0),
                  },
                  {
                    data: flow.data.rows.map((r) => -r.payablesOutCents),
                    label: 'Saídas',
                    stack: 'out',
                    valueFormatter: (v) => formatCents(v ?? 0),
                  },
                  {
                    data: flow.data.rows.map((r) => -r.projectedOutCents),
                    label: 'A pagar',
                    stack: 'out',
                    valueFormatter: (v) => formatCents(v ?? 0),
                  },
                ]}
              />
            </ChartsLocalizationProvider>
          </Paper>
          <ListTable
            label="Fluxo de caixa"
            head={[
              'Período',
              alignRight('Vendas recebidas'),
              alignRight('Crediário recebido'),
              alignRight('Contas pagas'),
              alignRight('A receber'),
              alignRight('A pagar'),
              alignRight('Saldo'),
            ]}
          >
            {flow.data.rows.map((r) => (
              <TableRow key={r.period} selected={r.period <= flow.data.today && flow.data.today <= r.period}>
                <TableCell>{label(r.period)}</TableCell>
                <TableCell align="right">{formatCents(r.salesInCents)}</TableCell>
                <TableCell align="right">{formatCents(r.receivablesInCents)}</TableCell>
                <TableCell align="right">{formatCents(r.payablesOutCents)}</TableCell>
                <TableCell align="right">{formatCents(r.projectedInCents)}</TableCell>
                <TableCell align="right">{formatCents(r.projectedOutCents)}</TableCell>
                <TableCell align="right">{formatCents(r.balanceCents)}</TableCell>
              </TableRow>
            ))}
          </ListTable>
          <ListTable
            label="Vendas recebidas por forma de pagamento"
            head={[
              'Período',
              ...methods.map((m) => alignRight(CASH_FLOW_METHOD_LABELS[m])),
              alignRight('Vendas recebidas'),
            ]}
          >
            {flow.data.rows.map((r) => (
              <TableRow key={r.period}>
                <TableCell>{label(r.period)}</TableCell>
                {methods.map((m) => (
                  <TableCell key={m} align="right">
                    {formatCents(r.salesByMethodCents[m])}
                  </TableCell>
                ))}
                <TableCell align="right">{formatCents(r.salesInCents)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell sx={{ fontWeight: 700 }}>Total</TableCell>
              {methods.map((m) => (
                <TableCell key={m} align="right" sx={{ fontWeight: 700 }}>
                  {formatCents(flow.data.totals.salesByMethodCents[m])}
                </TableCell>
              ))}
              <TableCell align="right" sx={{ fontWeight: 700 }}>
                {formatCents(flow.data.totals.salesInCents)}
              </TableCell>
            </TableRow>
          </ListTable>
        </Stack>
      )}
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
