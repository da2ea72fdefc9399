import { financeApi } from '@balcao/core/endpoints/finance';
import { DRE_DRILL_LINES } from '@balcao/core/finance';
import { formatCents } from '@balcao/core/money';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { alignRight, ListHeader, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { download } from '../../lib/client.ts';
import { shopToday } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { Change, ExportBar } from '../report/index.ts';
import { useDre } from './api.ts';
import { DreEntriesDialog } from './DreEntriesDialog.tsx';

/** A month as its column reads: "03/2026". */
const monthText = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`;

function queryFromParams(params: URLSearchParams) {
  const month = readParam.text(params, 'month');
  return { month: month && /^\d{4}-\d{2}$/.test(month) ? month : shopToday().slice(0, 7) };
}

/** Financeiro > DRE (issue 34): a competence month's result beside the month before (value and change), exported as CSV, XLSX or PDF; a line opens the records behind it. */
export default function DrePage() {
  const { state, show, close } = useFeedback();
  const { query, update } = useListParams(queryFromParams);
  const dre = useDre(query.month);
  // The line stays while the dialog fades out, so its records do not turn into a spinner on close.
  const [drill, setDrill] = useState<{ line: string | null; open: boolean }>({ line: null, open: false });
  const failed = (error: unknown) =>
    show({ severity: 'error', title: 'Erro ao exportar', message: errorMessage(error) });
  const previous = new Map(dre.data?.previous.lines.map((l) => [l.key, l.amountCents]));
  return (
    <Box>
      <ListHeader title="DRE">
        <ExportBar
          actions={[
            {
              kind: 'csv',
              label: 'Exportar CSV',
              start: (onProgress) =>
                download(financeApi.dreExport, { query }, `dre-${query.month}.csv`, undefined, onProgress),
            },
            {
              kind: 'xlsx',
              label: 'Exportar XLSX',
              busyLabel: 'Exportando...',
              start: (onProgress) =>
                download(financeApi.dreXlsx, { query }, `dre-${query.month}.xlsx`, undefined, onProgress),
            },
            {
              kind: 'pdf',
              label: 'Baixar PDF',
              busyLabel: 'Gerando...',
              start: (onProgress) =>
                download(financeApi.drePdf, { query }, `dre-${query.month}.pdf`, undefined, onProgress),
            },
          ]}
          onError={failed}
        />
      </ListHeader>
      <TextField
        label="Mês de competência"
        type="month"
        size="small"
        value={query.month}
        onChange={(e) => e.target.value && update({ month: e.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ mb: 2 }}
      />
      {dre.isPending ? (
        <Loading />
      ) : dre.isError ? (
        <LoadError what="Não foi possível carregar o DRE." error={dre.error} onRetry={() => dre.refetch()} />
      ) : (
        <Stack spacing={1} sx={{ maxWidth: 760 }}>
          <ListTable
            label="DRE"
            head={[
              'Linha',
              alignRight(monthText(dre.data.month)),
              alignRight(monthText(dre.data.previous.month)),
              alignRight('Variação'),
            ]}
          >
            {dre.data.lines.map((line) => (
              <TableRow key={line.key} data-testid={`dre-${line.key}`}>
                <TableCell sx={{ fontWeight: line.total ? 700 : undefined }}>
                  {(DRE_DRILL_LINES as readonly string[]).includes(line.key) ? (
                    <Link
                      component="button"
                      type="button"
                      onClick={() => setDrill({ line: line.key, open: true })}
                      sx={{ textAlign: 'left' }}
                    >
                      {line.label}
                    </Link>
                  ) : (
                    line.label
                  )}
                </TableCell>
                <TableCell
                  align="right"
                  sx={{
                    fontWeight: line.total ? 700 : undefined,
                    color: line.amountCents < 0 ? 'error.main' : undefined,
                  }}
                >
                  {formatCents(line.amountCents)}
                </TableCell>
                <TableCell
                  align="right"
                  sx={{ fontWeight: line.total ? 700 : undefined, color: 'text.secondary' }}
                >
                  {formatCents(previous.get(line.key) ?? 0)}
                </TableCell>
                <TableCell align="right">
                  <Change current={line.amountCents} previous={previous.get(line.key) ?? 0} />
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
          <Typography variant="body2" color="text.secondary">
            {dre.data.salesCount} vendas no mês ({dre.data.previous.salesCount} no mês anterior). Compras de
            mercadorias lançadas (estoque, fora do resultado): {formatCents(dre.data.purchasesCents)}.
          </Typography>
        </Stack>
      )}
      <DreEntriesDialog
        month={query.month}
        line={drill.line}
        open={drill.open}
        onClose={() => setDrill((d) => ({ ...d, open: false }))}
      />
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
