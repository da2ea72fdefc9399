import {
  MEAL_VOUCHER_MESSAGES,
  type MealVoucherRate,
  type MealVoucherSettingsInput,
  mealVoucherSettingsInputSchema,
  quoteMealVoucher,
} from '@balcao/core/fees';
import { formatCents } from '@balcao/core/money';
import { PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Feedback } from '../../components/FeedbackSnackbar.tsx';
import { centsOf, MoneyField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useMealVoucherRates, useSaveMealVouchers } from './api.ts';

type Row = { method: MealVoucherRate['method']; enabled: boolean; rate: string; days: string };

const rowOf = (brand: MealVoucherRate): Row => ({
  method: brand.method,
  enabled: brand.enabled,
  rate: String(brand.rate).replace('.', ','),
  days: String(brand.settlementDays),
});

/** A row's rate and days as numbers, or null while what is typed is not one. */
function ratesOf(row: Row): { rate: number; settlementDays: number } | null {
  const rate = Number(row.rate.trim().replace(',', '.'));
  const days = /^\d+$/.test(row.days.trim()) ? Number(row.days) : Number.NaN;
  if (row.rate.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate >= 100) return null;
  if (!Number.isInteger(days) || days < 0 || days > 60) return null;
  return { rate, settlementDays: days };
}

/**
 * The meal voucher brands (issue 33): offered at the PDV or not, the rate and the days of each brand's
 * contract, and what a sale of the value typed leaves the shop and when. Who may not write sees it
 * without the switches and the button.
 */
export function MealVoucherTable({
  brands,
  canWrite,
  saving,
  onSave,
}: {
  brands: MealVoucherRate[];
  canWrite: boolean;
  saving: boolean;
  onSave: (input: MealVoucherSettingsInput) => void;
}) {
  const [rows, setRows] = useState<Row[]>(() => brands.map(rowOf));
  const [value, setValue] = useState('100,00');
  const [problem, setProblem] = useState<string | null>(null);
  const cents = centsOf(value);
  const validValue = Number.isSafeInteger(cents) && cents > 0;
  const change = (method: Row['method'], patch: Partial<Row>) =>
    setRows((current) => current.map((r) => (r.method === method ? { ...r, ...patch } : r)));

  const save = () => {
    const parsed = mealVoucherSettingsInputSchema.safeParse({
      brands: rows.map((r) => ({
        method: r.method,
        enabled: r.enabled,
        rate: r.rate,
        settlementDays: r.days,
      })),
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Confira os valores');
      return;
    }
    setProblem(null);
    onSave(parsed.data);
  };

  return (
    <Paper
      component="section"
      aria-labelledby="meal-vouchers-title"
      sx={{ p: 2, display: 'grid', gap: 2, minWidth: 0 }}
    >
      <Typography id="meal-vouchers-title" variant="h6" component="h2">
        Vales-refeição e alimentação
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {MEAL_VOUCHER_MESSAGES.help}
      </Typography>
      <MoneyField
        label="Valor da venda no vale"
        value={value}
        onChange={setValue}
        error={!validValue}
        helperText={validValue ? ' ' : 'Informe um valor maior que zero'}
        sx={{ maxWidth: 240 }}
      />
      <TableContainer>
        <Table size="small" aria-label="Vales-refeição e alimentação">
          <TableHead>
            <TableRow>
              <TableCell>Bandeira</TableCell>
              <TableCell>No PDV</TableCell>
              <TableCell>Taxa (%)</TableCell>
              <TableCell>Prazo (dias)</TableCell>
              <TableCell align="right">Você recebe</TableCell>
              <TableCell align="right">Recebe em</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => {
              const label = PAYMENT_METHOD_LABELS[row.method];
              const rates = ratesOf(row);
              const quote = rates && validValue ? quoteMealVoucher(rates, cents) : null;
              return (
                <TableRow key={row.method} data-row={label}>
                  <TableCell>{label}</TableCell>
                  <TableCell>
                    <Switch
                      checked={row.enabled}
                      disabled={!canWrite}
                      onChange={(e) => change(row.method, { enabled: e.target.checked })}
                      slotProps={{ input: { 'aria-label': `Aceitar ${label} no PDV` } }}
                    />
                  </TableCell>
                  <TableCell>
                    <TextField
                      value={row.rate}
                      disabled={!canWrite}
                      onChange={(e) => change(row.method, { rate: e.target.value })}
                      slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': `Taxa de ${label}` } }}
                      sx={{ width: 90 }}
                    />
                  </TableCell>
                  <TableCell>
                    <TextField
                      value={row.days}
                      disabled={!canWrite}
                      onChange={(e) => change(row.method, { days: e.target.value })}
                      slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-label': `Prazo de ${label}` } }}
                      sx={{ width: 80 }}
                    />
                  </TableCell>
                  <TableCell align="right">
                    {quote ? `${formatCents(quote.netCents)} (taxa ${formatCents(quote.feeCents)})` : '-'}
                  </TableCell>
                  <TableCell align="right">
                    {quote ? (quote.settlementDays === 0 ? 'Na hora' : `${quote.settlementDays} dias`) : '-'}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {problem && <Alert severity="error">{problem}</Alert>}
      {canWrite && (
        <Stack direction="row">
          <Button variant="contained" onClick={save} disabled={saving}>
            {saving ? 'Salvando...' : 'Salvar vales'}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}

/** The section of the fee simulator's page: the shop's brands, saved with feedback. */
export function MealVouchers({ canWrite, show }: { canWrite: boolean; show: (feedback: Feedback) => void }) {
  const rates = useMealVoucherRates();
  const save = useSaveMealVouchers();
  if (!rates.data) return null;
  return (
    <MealVoucherTable
      brands={rates.data.brands}
      canWrite={canWrite}
      saving={save.isPending}
      onSave={(body) =>
        save.mutate(
          { body },
          {
            onSuccess: () => show({ severity: 'success', title: 'Vales salvos' }),
            onError: (error) =>
              show({
                severity: 'error',
                title: 'Não foi possível salvar os vales',
                message: errorMessage(error),
              }),
          },
        )
      }
    />
  );
}
