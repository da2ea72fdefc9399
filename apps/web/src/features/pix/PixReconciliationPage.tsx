import { formatCents } from '@balcao/core/money';
import { PIX_DAY_STATUS_LABELS, type PixDay } from '@balcao/core/pixCharge';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime, shopToday } from '../../lib/format.ts';
import { downloadPixDay, usePendingPix, usePixDay, useResolvePendingPix } from './api.ts';

const DAY_COLORS: Record<PixDay['items'][number]['status'], 'success' | 'warning' | 'default'> = {
  matched: 'success',
  unmatched: 'warning',
  refunded: 'default',
};

/**
 * Vendas > Conciliação Pix (issue 33): the Pix that need a person (paid late, a wrong amount, after
 * the operator switched method, an unknown charge) and a day's Pix at the bank (GET /pix) against the
 * sales, exportable as CSV.
 */
export default function PixReconciliationPage() {
  const pending = usePendingPix();
  const resolve = useResolvePendingPix();
  const feedback = useFeedback();
  const [date, setDate] = useState(shopToday());
  const day = usePixDay(date);

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Conciliação Pix
      </Typography>

      <Typography variant="h6" component="h2">
        Pix a conciliar
      </Typography>
      {pending.isPending ? (
        <Loading />
      ) : pending.isError ? (
        <LoadError
          what="Não foi possível carregar os Pix a conciliar."
          error={pending.error}
          onRetry={() => pending.refetch()}
        />
      ) : pending.data.length === 0 ? (
        <Alert severity="success">Nenhum Pix esperando conciliação.</Alert>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Pix a conciliar">
            <TableHead>
              <TableRow>
                <TableCell>Recebido em</TableCell>
                <TableCell>Motivo</TableCell>
                <TableCell align="right">Valor pago</TableCell>
                <TableCell align="right">Valor cobrado</TableCell>
                <TableCell>Identificador (E2E)</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {pending.data.map((p) => (
                <TableRow key={p.id} data-testid="pix-pending-row">
                  <TableCell>{formatDateTime(p.paidAt)}</TableCell>
                  <TableCell>{p.reasonLabel}</TableCell>
                  <TableCell align="right">{formatCents(p.amountCents)}</TableCell>
                  <TableCell align="right">
                    {p.chargeCents === null ? '—' : formatCents(p.chargeCents)}
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {p.endToEndId}
                  </TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      onClick={() =>
                        resolve.mutate(
                          { params: { id: p.id } },
                          {
                            onSuccess: () =>
                              feedback.show({ severity: 'success', title: 'Pix marcado como conciliado' }),
                            onError: (error) =>
                              feedback.show({
                                severity: 'error',
                                title: 'Não foi possível marcar',
                                message: errorMessage(error),
                              }),
                          },
                        )
                      }
                    >
                      Marcar como resolvido
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, pt: 2 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Pix do dia no banco
        </Typography>
        <TextField
          type="date"
          label="Dia"
          value={date}
          onChange={(e) => e.target.value && setDate(e.target.value)}
          size="small"
        />
        <Button
          startIcon={<DownloadIcon />}
          variant="outlined"
          onClick={() =>
            downloadPixDay(date).catch((error) =>
              feedback.show({
                severity: 'error',
                title: 'Não foi possível exportar',
                message: errorMessage(error),
              }),
            )
          }
        >
          Exportar CSV
        </Button>
      </Stack>
      {day.isPending ? (
        <Loading />
      ) : day.isError ? (
        <LoadError
          what="Não foi possível consultar os Pix do banco."
          error={day.error}
          onRetry={() => day.refetch()}
        />
      ) : (
        <>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
            <Chip color="success" label={`Conciliados: ${formatCents(day.data.totals.matchedCents)}`} />
            <Chip color="warning" label={`Sem venda: ${formatCents(day.data.totals.unmatchedCents)}`} />
            <Chip label={`Devolvidos: ${formatCents(day.data.totals.refundedCents)}`} />
          </Stack>
          {day.data.items.length === 0 ? (
            <Alert severity="info">O banco não informou Pix neste dia.</Alert>
          ) : (
            <TableContainer component={Paper} variant="outlined">
              <Table size="small" aria-label="Pix do dia">
                <TableHead>
                  <TableRow>
                    <TableCell>Horário</TableCell>
                    <TableCell>Situação</TableCell>
                    <TableCell align="right">Valor</TableCell>
                    <TableCell>Venda</TableCell>
                    <TableCell>Identificador (E2E)</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {day.data.items.map((i) => (
                    <TableRow key={i.endToEndId}>
                      <TableCell>{formatDateTime(i.paidAt)}</TableCell>
                      <TableCell>
                        <Chip
                          size="small"
                          color={DAY_COLORS[i.status]}
                          label={PIX_DAY_STATUS_LABELS[i.status]}
                        />
                      </TableCell>
                      <TableCell align="right">{formatCents(i.amountCents)}</TableCell>
                      <TableCell>{i.saleId ?? '—'}</TableCell>
                      <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                        {i.endToEndId}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}
