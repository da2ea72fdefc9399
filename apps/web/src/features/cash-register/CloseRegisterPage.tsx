import { formatCents } from '@balcao/core/money';
import { CASH_REGISTER_MESSAGES, COUNTED_METHODS, PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
import type { PaymentMethod } from '@balcao/core/status';
import PrintIcon from '@mui/icons-material/Print';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { centsOf, centsToInput, MoneyField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/session.tsx';
import { useCloseRegister, useCurrentRegister } from './api.ts';
import { RegisterHistory } from './RegisterHistory.tsx';
import { REPORT_PRINT_CSS, RegisterReport } from './RegisterReport.tsx';

/** /dashboard/sale/pdv/close: counted per method, expected vs counted, difference, printable report. */
export default function CloseRegisterPage() {
  const clientId = useSession().user?.client.id;
  const current = useCurrentRegister();
  const closing = useCloseRegister();
  const [counted, setCounted] = useState<Partial<Record<PaymentMethod, string>>>({});
  const [notes, setNotes] = useState('');
  const [confirm, setConfirm] = useState(false);

  if (closing.data) {
    return (
      <Box>
        <style>{REPORT_PRINT_CSS}</style>
        <Stack
          direction="row"
          sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 2, flexWrap: 'wrap' }}
        >
          <Typography component="h1" variant="h5">
            Caixa fechado
          </Typography>
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()}>
              Imprimir relatório
            </Button>
            <Button component={RouterLink} to="/dashboard/sale/pdv" variant="contained">
              Ir para o PDV
            </Button>
          </Stack>
        </Stack>
        <RegisterReport summary={closing.data} />
        {clientId && <RegisterHistory clientId={clientId} />}
      </Box>
    );
  }
  if (current.isPending) return <Loading text={CASH_REGISTER_MESSAGES.loading} />;
  if (current.isError) return <Alert severity="error">{errorMessage(current.error)}</Alert>;
  const summary = current.data;
  if (!summary) {
    return (
      <Box>
        <Alert
          severity="info"
          action={
            <Button color="inherit" component={RouterLink} to="/dashboard/sale/pdv">
              Ir para o PDV
            </Button>
          }
        >
          {CASH_REGISTER_MESSAGES.notOpen}.
        </Alert>
        {clientId && <RegisterHistory clientId={clientId} />}
      </Box>
    );
  }

  const rows = summary.methods.filter((m) => m.countable);
  const methods = rows.length
    ? rows
    : [{ method: 'money' as const, expectedCents: summary.money.expectedCents }];
  const textOf = (method: PaymentMethod, expected: number) =>
    counted[method] ?? (method === 'money' ? '' : centsToInput(expected));
  const parsed = methods.map((m) => ({
    method: m.method,
    expected: m.expectedCents,
    cents: centsOf(textOf(m.method, m.expectedCents)),
  }));
  const invalid = parsed.some((p) => Number.isNaN(p.cents)) || textOf('money', 0) === '';
  const expectedTotal = parsed.reduce((s, p) => s + p.expected, 0);
  const countedTotal = parsed.reduce((s, p) => s + (Number.isNaN(p.cents) ? 0 : p.cents), 0);

  const submit = () => {
    setConfirm(false);
    closing.mutate({
      counted: parsed
        .filter((p) => COUNTED_METHODS.includes(p.method))
        .map((p) => ({ method: p.method, amountCents: p.cents })),
      notes,
    });
  };

  return (
    <Box>
      <Typography component="h1" variant="h5" gutterBottom>
        Fechar caixa
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Conte o dinheiro da gaveta e confira os comprovantes das maquininhas. Informe o valor contado de cada
        forma de pagamento.
      </Typography>
      <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 2 }}>
        <Table aria-label="Valores contados">
          <TableHead>
            <TableRow>
              <TableCell>Forma de pagamento</TableCell>
              <TableCell align="right">Esperado</TableCell>
              <TableCell sx={{ width: 220 }}>Contado</TableCell>
              <TableCell align="right">Diferença</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {parsed.map((p, index) => {
              const diff = Number.isNaN(p.cents) ? null : p.cents - p.expected;
              return (
                <TableRow key={p.method}>
                  <TableCell>{PAYMENT_METHOD_LABELS[p.method]}</TableCell>
                  <TableCell align="right">{formatCents(p.expected)}</TableCell>
                  <TableCell>
                    <MoneyField
                      size="small"
                      label={`Contado em ${PAYMENT_METHOD_LABELS[p.method]}`}
                      value={textOf(p.method, p.expected)}
                      onChange={(text) => setCounted((c) => ({ ...c, [p.method]: text }))}
                      autoFocus={index === 0}
                    />
                  </TableCell>
                  <TableCell
                    align="right"
                    sx={{ color: diff ? (diff < 0 ? 'error.main' : 'warning.main') : undefined }}
                  >
                    {diff === null
                      ? '—'
                      : `${diff > 0 ? '+ ' : diff < 0 ? '- ' : ''}${formatCents(Math.abs(diff))}`}
                  </TableCell>
                </TableRow>
              );
            })}
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>Total</TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }}>
                {formatCents(expectedTotal)}
              </TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{formatCents(countedTotal)}</TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }} data-testid="close-difference">
                {countedTotal - expectedTotal === 0
                  ? formatCents(0)
                  : `${countedTotal > expectedTotal ? '+ ' : '- '}${formatCents(Math.abs(countedTotal - expectedTotal))}`}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </Paper>
      <TextField
        label="Observações"
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
        multiline
        minRows={2}
        fullWidth
        sx={{ mb: 2 }}
      />
      {closing.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(closing.error)}
        </Alert>
      )}
      <Stack direction="row" spacing={1}>
        <Button variant="contained" disabled={invalid || closing.isPending} onClick={() => setConfirm(true)}>
          {closing.isPending ? 'Fechando...' : 'Fechar caixa'}
        </Button>
        <Button component={RouterLink} to="/dashboard/sale/pdv">
          Voltar ao PDV
        </Button>
      </Stack>
      <Typography component="h2" variant="h6" sx={{ mt: 4, mb: 1 }}>
        Resumo do caixa
      </Typography>
      <RegisterReport summary={summary} />
      {clientId && <RegisterHistory clientId={clientId} />}
      <ConfirmDialog
        open={confirm}
        title="Fechar caixa"
        message={`Confirma o fechamento com diferença de ${formatCents(Math.abs(countedTotal - expectedTotal))}${countedTotal < expectedTotal ? ' (falta)' : countedTotal > expectedTotal ? ' (sobra)' : ''}?`}
        confirmLabel="Fechar caixa"
        onConfirm={submit}
        onCancel={() => setConfirm(false)}
      />
    </Box>
  );
}
