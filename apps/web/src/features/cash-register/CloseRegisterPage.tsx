import {
  CASH_REGISTER_MESSAGES,
  type CashRegisterCloseInput,
  type CashRegisterSummary,
  COUNTED_METHODS,
  cashRegisterCloseSchema,
} from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import { PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
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
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import {
  Form,
  FormError,
  FormTextField,
  SubmitButton,
  showServerError,
  useAppForm,
} from '../../components/form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { centsOf, centsToInput, MoneyField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/index.ts';
import { useCloseRegister, useCurrentRegister } from './api.ts';
import { RegisterHistory } from './RegisterHistory.tsx';
import { REPORT_PRINT_CSS, RegisterReport } from './RegisterReport.tsx';

/** /dashboard/sale/pdv/close: counted per method, expected vs counted, difference, printable report. */
export default function CloseRegisterPage() {
  const clientId = useSession().user?.client.id;
  const current = useCurrentRegister();
  const closing = useCloseRegister();

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

  return (
    <Box>
      <Typography component="h1" variant="h5" gutterBottom>
        Fechar caixa
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Conte o dinheiro da gaveta e confira os comprovantes das maquininhas. Informe o valor contado de cada
        forma de pagamento.
      </Typography>
      <CloseForm summary={summary} onClose={(input) => closing.mutateAsync({ body: input })} />
      <Typography component="h2" variant="h6" sx={{ mt: 4, mb: 1 }}>
        Resumo do caixa
      </Typography>
      <RegisterReport summary={summary} />
      {clientId && <RegisterHistory clientId={clientId} />}
    </Box>
  );
}

type Values = { counted: Partial<Record<PaymentMethod, string>>; notes: string };

/** The count: one money input per method (untouched card methods show what is expected), notes, confirm. */
function CloseForm({
  summary,
  onClose,
}: {
  summary: CashRegisterSummary;
  onClose: (input: CashRegisterCloseInput) => Promise<unknown>;
}) {
  const [confirm, setConfirm] = useState<CashRegisterCloseInput | null>(null);
  const [closing, setClosing] = useState(false);
  const rows = summary.methods.filter((m) => m.countable);
  const methods = rows.length
    ? rows
    : [{ method: 'money' as const, expectedCents: summary.money.expectedCents }];
  const closed = methods.filter((m) => COUNTED_METHODS.includes(m.method));
  const textOf = (counted: Values['counted'], method: PaymentMethod, expected: number) =>
    counted[method] ?? (method === 'money' ? '' : centsToInput(expected));
  // The money in the drawer must be counted: an empty count is no count.
  const centsIn = (counted: Values['counted'], method: PaymentMethod, expected: number) => {
    const text = textOf(counted, method, expected);
    return method === 'money' && text.trim() === '' ? Number.NaN : centsOf(text);
  };
  const form = useAppForm({
    schema: cashRegisterCloseSchema,
    defaultValues: { counted: { money: '' }, notes: '' } as Values,
    toInput: (values: Values) => ({
      counted: closed.map((m) => ({
        method: m.method,
        amountCents: centsIn(values.counted, m.method, m.expectedCents),
      })),
      notes: values.notes,
    }),
    fieldOf: Object.fromEntries(
      closed.map((m, i) => [`counted.${i}.amountCents`, `counted.${m.method}` as const]),
    ),
  });
  const counted = useWatch({ control: form.control, name: 'counted' });
  const parsed = methods.map((m) => ({
    method: m.method,
    expected: m.expectedCents,
    cents: centsOf(textOf(counted, m.method, m.expectedCents)),
  }));
  const expectedTotal = parsed.reduce((s, p) => s + p.expected, 0);
  const countedTotal = parsed.reduce((s, p) => s + (Number.isNaN(p.cents) ? 0 : p.cents), 0);

  const close = async () => {
    const input = confirm;
    setConfirm(null);
    if (!input) return;
    setClosing(true);
    try {
      await onClose(input);
    } catch (error) {
      showServerError(form, error);
    } finally {
      setClosing(false);
    }
  };

  return (
    <Form form={form} onSubmit={(input) => setConfirm(input)} aria-label="Fechamento do caixa">
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
                    <Controller
                      control={form.control}
                      name={`counted.${p.method}`}
                      render={({ field, fieldState }) => (
                        <MoneyField
                          size="small"
                          label={`Contado em ${PAYMENT_METHOD_LABELS[p.method]}`}
                          value={textOf(counted, p.method, p.expected)}
                          onChange={field.onChange}
                          onBlur={field.onBlur}
                          inputRef={field.ref}
                          autoFocus={index === 0}
                          error={Boolean(fieldState.error)}
                          helperText={fieldState.error?.message}
                        />
                      )}
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
      <FormTextField
        control={form.control}
        name="notes"
        label="Observações"
        multiline
        minRows={2}
        sx={{ mb: 2 }}
      />
      <Box sx={{ mb: 2 }}>
        <FormError />
      </Box>
      <Stack direction="row" spacing={1}>
        <SubmitButton busyLabel="Fechando..." disabled={confirm !== null || closing}>
          {closing ? 'Fechando...' : 'Fechar caixa'}
        </SubmitButton>
        <Button component={RouterLink} to="/dashboard/sale/pdv">
          Voltar ao PDV
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirm !== null}
        title="Fechar caixa"
        message={`Confirma o fechamento com diferença de ${formatCents(Math.abs(countedTotal - expectedTotal))}${countedTotal < expectedTotal ? ' (falta)' : countedTotal > expectedTotal ? ' (sobra)' : ''}?`}
        confirmLabel="Fechar caixa"
        onConfirm={close}
        onCancel={() => setConfirm(null)}
      />
    </Form>
  );
}
