import { financeApi } from '@balcao/core/endpoints/finance';
import { formatCents } from '@balcao/core/money';
import { PAY_METHOD_LABELS, type PayMethod } from '@balcao/core/payable';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListHeader, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { download } from '../../lib/client.ts';
import { shopToday } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { ExportBar } from '../report/index.ts';
import { useDayClose } from './api.ts';

function queryFromParams(params: URLSearchParams) {
  return { date: readParam.date(params, 'date', shopToday()) ?? shopToday() };
}

/** Financeiro > Fechamento do dia (issue 34): the day's sales by method, the bills paid, the net. */
export default function DayClosePage() {
  const { query, update } = useListParams(queryFromParams);
  const close = useDayClose(query.date);
  const feedback = useFeedback();
  const file = `fechamento-${query.date}`;
  const dayQuery = { query: { date: query.date } };
  return (
    <Box sx={{ maxWidth: 720 }}>
      <ListHeader title="Fechamento do dia" />
      <Stack spacing={1.5} sx={{ mb: 2 }}>
        <TextField
          label="Dia"
          type="date"
          size="small"
          value={query.date}
          onChange={(e) => e.target.value && update({ date: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ alignSelf: 'flex-start' }}
        />
        <ExportBar
          actions={[
            {
              kind: 'csv',
              label: 'Exportar CSV',
              start: (onProgress) =>
                download(financeApi.dayCloseCsv, dayQuery, `${file}.csv`, undefined, onProgress),
            },
            {
              kind: 'xlsx',
              label: 'Exportar XLSX',
              busyLabel: 'Exportando...',
              start: (onProgress) =>
                download(financeApi.dayCloseXlsx, dayQuery, `${file}.xlsx`, undefined, onProgress),
            },
            {
              kind: 'pdf',
              label: 'Baixar PDF',
              busyLabel: 'Gerando...',
              start: (onProgress) =>
                download(financeApi.dayClosePdf, dayQuery, `${file}.pdf`, undefined, onProgress),
            },
          ]}
          onError={(error) =>
            feedback.show({ severity: 'error', title: 'Erro ao exportar', message: errorMessage(error) })
          }
        />
      </Stack>
      {close.isPending ? (
        <Loading />
      ) : close.isError ? (
        <LoadError
          what="Não foi possível carregar o fechamento."
          error={close.error}
          onRetry={() => close.refetch()}
        />
      ) : (
        <Stack spacing={2}>
          <ListTable
            label="Vendas por forma de pagamento"
            head={['Forma de pagamento', alignRight('Vendas')]}
          >
            {close.data.salesByMethod.map((m) => (
              <TableRow key={m.method}>
                <TableCell>{m.label}</TableCell>
                <TableCell align="right">{formatCents(m.amountCents)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell sx={{ fontWeight: 700 }}>Total vendido</TableCell>
              <TableCell align="right" sx={{ fontWeight: 700 }}>
                {formatCents(close.data.salesCents)}
              </TableCell>
            </TableRow>
          </ListTable>
          <ListTable label="Contas pagas no dia" head={['Conta', 'Forma', alignRight('Valor')]}>
            {close.data.expenses.map((e) => (
              <TableRow key={e.paymentId}>
                <TableCell>{e.description}</TableCell>
                <TableCell>
                  {PAY_METHOD_LABELS[e.method as PayMethod] ?? e.method}
                  {e.fromRegister ? ' (do caixa)' : ''}
                </TableCell>
                <TableCell align="right">{formatCents(e.amountCents)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell sx={{ fontWeight: 700 }}>Total pago</TableCell>
              <TableCell />
              <TableCell align="right" sx={{ fontWeight: 700 }}>
                {formatCents(close.data.expensesCents)}
              </TableCell>
            </TableRow>
          </ListTable>
          <Paper sx={{ p: 2 }}>
            <Typography variant="h6" component="p" aria-label="Resultado do dia">
              Vendas menos contas pagas: {formatCents(close.data.netCents)}
            </Typography>
          </Paper>
        </Stack>
      )}
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Box>
  );
}
