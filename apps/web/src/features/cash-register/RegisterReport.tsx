import {
  CASH_MOVEMENT_LABELS,
  type CashRegisterSummary,
  DRAWER_OPENING_REASON_LABELS,
} from '@balcao/core/cashRegister';
import { formatCents } from '@balcao/core/money';
import { PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { formatDateTime } from '../../lib/format.ts';

const signed = (cents: number | null) =>
  cents === null
    ? '—'
    : cents > 0
      ? `+ ${formatCents(cents)}`
      : cents < 0
        ? `- ${formatCents(-cents)}`
        : formatCents(0);

/** The closing report (printable: only it goes to paper, see the print CSS of the close page). */
export function RegisterReport({
  summary,
  className = 'register-report',
}: {
  summary: CashRegisterSummary;
  /** What the print CSS shows (the history dialog prints its own report only). */
  className?: string;
}) {
  const closed = summary.status === 'closed';
  return (
    <Paper variant="outlined" sx={{ p: 2 }} className={className} data-testid="register-report">
      <Typography component="h2" variant="h6">
        Caixa de {summary.user.name} {closed ? '(fechado)' : '(aberto)'}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Aberto em {formatDateTime(summary.openedAt)}
        {summary.closedAt ? ` · fechado em ${formatDateTime(summary.closedAt)}` : ''}
      </Typography>
      <Typography variant="body2">
        Vendas: {summary.sales.count} ({formatCents(summary.sales.amountCents)}) · canceladas:{' '}
        {summary.sales.canceledCount} · descontos: {formatCents(summary.sales.discountCents)} · troco dado:{' '}
        {formatCents(summary.sales.changeCents)}
      </Typography>

      <Box sx={{ overflowX: 'auto', mt: 2 }}>
        <Table size="small" aria-label="Dinheiro no caixa">
          <TableBody>
            <TableRow>
              <TableCell>Abertura</TableCell>
              <TableCell align="right">{formatCents(summary.money.openingCents)}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell>Vendas em dinheiro</TableCell>
              <TableCell align="right">{formatCents(summary.money.salesCents)}</TableCell>
            </TableRow>
            {summary.money.receiptsCents > 0 && (
              <TableRow>
                <TableCell>Parcelas recebidas em dinheiro</TableCell>
                <TableCell align="right">{formatCents(summary.money.receiptsCents)}</TableCell>
              </TableRow>
            )}
            <TableRow>
              <TableCell>Suprimentos</TableCell>
              <TableCell align="right">{formatCents(summary.money.depositsCents)}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell>Sangrias</TableCell>
              <TableCell align="right">- {formatCents(summary.money.withdrawalsCents)}</TableCell>
            </TableRow>
            {summary.money.refundsCents > 0 && (
              <TableRow>
                <TableCell>Devoluções em dinheiro</TableCell>
                <TableCell align="right">- {formatCents(summary.money.refundsCents)}</TableCell>
              </TableRow>
            )}
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>Dinheiro esperado</TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }}>
                {formatCents(summary.money.expectedCents)}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </Box>

      <Box sx={{ overflowX: 'auto', mt: 2 }}>
        <ListTable
          label="Conferência por forma de pagamento"
          head={[
            'Forma de pagamento',
            alignRight('Esperado'),
            alignRight('Contado'),
            alignRight('Diferença'),
          ]}
        >
          {summary.methods.map((m) => (
            <TableRow key={m.method}>
              <TableCell>
                {PAYMENT_METHOD_LABELS[m.method]}
                {!m.countable ? ' (a receber)' : ''}
              </TableCell>
              <TableCell align="right">{formatCents(m.expectedCents)}</TableCell>
              <TableCell align="right">
                {m.countable && m.countedCents !== null ? formatCents(m.countedCents) : '—'}
              </TableCell>
              <TableCell
                align="right"
                sx={{
                  color: m.differenceCents
                    ? m.differenceCents < 0
                      ? 'error.main'
                      : 'warning.main'
                    : undefined,
                }}
              >
                {m.countable ? signed(m.differenceCents) : '—'}
              </TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>Total</TableCell>
            <TableCell align="right" sx={{ fontWeight: 600 }}>
              {formatCents(summary.totals.expectedCents)}
            </TableCell>
            <TableCell align="right" sx={{ fontWeight: 600 }}>
              {summary.totals.countedCents === null ? '—' : formatCents(summary.totals.countedCents)}
            </TableCell>
            <TableCell align="right" sx={{ fontWeight: 600 }} data-testid="register-difference">
              {signed(summary.totals.differenceCents)}
            </TableCell>
          </TableRow>
        </ListTable>
      </Box>

      {summary.movements.length > 0 && (
        <Box sx={{ overflowX: 'auto', mt: 2 }}>
          <ListTable label="Movimentações" head={['Hora', 'Tipo', 'Motivo', alignRight('Valor')]}>
            {summary.movements.map((m) => (
              <TableRow key={m.id}>
                <TableCell>{formatDateTime(m.createdAt)}</TableCell>
                <TableCell>
                  {CASH_MOVEMENT_LABELS[m.type]}
                  {m.type === 'receipt' ? ` (${PAYMENT_METHOD_LABELS[m.paymentMethod]})` : ''}
                </TableCell>
                <TableCell>
                  {m.reason}
                  {m.approvedBy ? ` · aprovado por ${m.approvedBy.name}` : ''}
                </TableCell>
                <TableCell align="right">
                  {m.type === 'withdrawal' ? '- ' : ''}
                  {formatCents(m.amountCents)}
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        </Box>
      )}
      {summary.drawerOpenings.length > 0 && (
        <Box sx={{ overflowX: 'auto', mt: 2 }}>
          <Typography component="h3" variant="subtitle2">
            Aberturas da gaveta: {summary.drawerOpenings.length}
          </Typography>
          <ListTable label="Aberturas da gaveta" head={['Hora', 'Motivo', 'Quem']}>
            {summary.drawerOpenings.map((d) => (
              <TableRow key={d.id}>
                <TableCell>{formatDateTime(d.createdAt)}</TableCell>
                <TableCell>{DRAWER_OPENING_REASON_LABELS[d.reason]}</TableCell>
                <TableCell>{d.user.name}</TableCell>
              </TableRow>
            ))}
          </ListTable>
        </Box>
      )}
      {summary.closingNotes && (
        <Typography variant="body2" sx={{ mt: 2 }}>
          Observações: {summary.closingNotes}
        </Typography>
      )}
    </Paper>
  );
}

/** The history dialog's report: printed alone, even over a page that shows another report. */
export const DIALOG_REPORT_PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  .register-report, .register-report * { visibility: hidden !important; }
  .register-report-dialog, .register-report-dialog * { visibility: visible !important; }
  .register-report-dialog { position: fixed; left: 0; top: 0; width: 100%; border: 0 !important; }
}`;

/** Print only the report (A4 or a receipt printer: the browser's own size). */
export const REPORT_PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  .register-report, .register-report * { visibility: visible !important; }
  .register-report { position: absolute; left: 0; top: 0; width: 100%; border: 0 !important; }
}`;
