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
import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
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
      {!summary.blindCount && (
        <>
          <Typography component="h2" variant="h6" sx={{ mt: 4, mb: 1 }}>
            Resumo do caixa
          </Typography>
          <RegisterReport summary={summary} />
        </>
      )}
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
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const blind = summary.blindCount;
  const rows = summary.methods.filter((m) => m.countable);
  const methods = rows.length
    ? rows
    : [{ method: 'money' as const, expectedCents: summary.money.expectedCents }];
  const closed = methods.filter((m) => COUNTED_METHODS.includes(m.method));
  // A blind count (issue 30) starts every method empty: nothing hints at the expected amount.
  const textOf = (counted: Values['counted'], method: PaymentMethod, expected: number) =>
    counted[method] ?? (method === 'money' || blind ? '' : centsToInput(expected));
  // The money in the drawer must be counted: an empty count is no count (blind: every method).
  const centsIn = (counted: Values['counted'], method: PaymentMethod, expected: number) => {
    const text = textOf(counted, method, expected);
    return (method === 'money' || blind) && text.trim() === '' ? Number.NaN : centsOf(text);
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

  const signedText = (diff: number | null) =>
    diff === null ? '—' : `${diff > 0 ? '+ ' : diff < 0 ? '- ' : ''}${formatCents(Math.abs(diff))}`;
  const diffColor = (diff: number | null) => (diff ? (diff < 0 ? 'error.main' : 'warning.main') : undefined);
  const countedField = (method: PaymentMethod, expected: number, index: number) => (
    <Controller
      control={form.control}
      name={`counted.${method}`}
      render={({ field, fieldState }) => (
        <MoneyField
          size="small"
          fullWidth
          label={`Contado em ${PAYMENT_METHOD_LABELS[method]}`}
          value={textOf(counted, method, expected)}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          autoFocus={index === 0}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
        />
      )}
    />
  );
  const totalDiff = countedTotal - expectedTotal;

  return (
    <Form form={form} onSubmit={(input) => setConfirm(input)} aria-label="Fechamento do caixa">
      {blind && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Contagem às cegas: informe o que você contou de cada forma de pagamento. O valor esperado e a
          diferença aparecem depois de confirmar o fechamento.
        </Alert>
      )}
      {phone ? (
        // Phones (issue 30 item 21): one card per method, the label and the difference on their own lines.
        <Stack spacing={1.5} sx={{ mb: 2 }} aria-label="Valores contados">
          {parsed.map((p, index) => {
            const diff = Number.isNaN(p.cents) ? null : p.cents - p.expected;
            return (
              <Paper key={p.method} variant="outlined" sx={{ p: 1.5 }}>
                <Typography sx={{ fontWeight: 600, mb: 1 }}>{PAYMENT_METHOD_LABELS[p.method]}</Typography>
                {!blind && (
                  <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 1 }}>
                    <Typography variant="body2">Esperado</Typography>
                    <Typography variant="body2">{formatCents(p.expected)}</Typography>
                  </Stack>
                )}
                {countedField(p.method, p.expected, index)}
                {!blind && (
                  <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 1 }}>
                    <Typography variant="body2">Diferença</Typography>
                    <Typography variant="body2" sx={{ color: diffColor(diff) }}>
                      {signedText(diff)}
                    </Typography>
                  </Stack>
                )}
              </Paper>
            );
          })}
          <Paper variant="outlined" sx={{ p: 1.5 }}>
            {!blind && (
              <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
                <Typography sx={{ fontWeight: 600 }}>Total esperado</Typography>
                <Typography sx={{ fontWeight: 600 }}>{formatCents(expectedTotal)}</Typography>
              </Stack>
            )}
            <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
              <Typography sx={{ fontWeight: 600 }}>Total contado</Typography>
              <Typography sx={{ fontWeight: 600 }}>{formatCents(countedTotal)}</Typography>
            </Stack>
            {!blind && (
              <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
                <Typography sx={{ fontWeight: 600 }}>Diferença</Typography>
                <Typography sx={{ fontWeight: 600 }} data-testid="close-difference">
                  {signedText(totalDiff)}
                </Typography>
              </Stack>
            )}
          </Paper>
        </Stack>
      ) : (
        <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 2 }}>
          <Table aria-label="Valores contados">
            <TableHead>
              <TableRow>
                <TableCell>Forma de pagamento</TableCell>
                {!blind && <TableCell align="right">Esperado</TableCell>}
                <TableCell sx={{ width: 260 }}>Contado</TableCell>
                {!blind && <TableCell align="right">Diferença</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {parsed.map((p, index) => {
                const diff = Number.isNaN(p.cents) ? null : p.cents - p.expected;
                return (
                  <TableRow key={p.method}>
                    <TableCell>{PAYMENT_METHOD_LABELS[p.method]}</TableCell>
                    {!blind && <TableCell align="right">{formatCents(p.expected)}</TableCell>}
                    <TableCell>{countedField(p.method, p.expected, index)}</TableCell>
                    {!blind && (
                      <TableCell align="right" sx={{ color: diffColor(diff) }}>
                        {signedText(diff)}
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>Total</TableCell>
                {!blind && (
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {formatCents(expectedTotal)}
                  </TableCell>
                )}
                <TableCell sx={{ fontWeight: 600 }}>{formatCents(countedTotal)}</TableCell>
                {!blind && (
                  <TableCell align="right" sx={{ fontWeight: 600 }} data-testid="close-difference">
                    {signedText(totalDiff)}
                  </TableCell>
                )}
              </TableRow>
            </TableBody>
          </Table>
        </Paper>
      )}
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
        message={
          blind
            ? `Confirma o fechamento com ${formatCents(countedTotal)} contados? A diferença aparece depois de fechar.`
            : `Confirma o fechamento com diferença de ${formatCents(Math.abs(totalDiff))}${totalDiff < 0 ? ' (falta)' : totalDiff > 0 ? ' (sobra)' : ''}?`
        }
        confirmLabel="Fechar caixa"
        onConfirm={close}
        onCancel={() => setConfirm(null)}
      />
    </Form>
  );
}
