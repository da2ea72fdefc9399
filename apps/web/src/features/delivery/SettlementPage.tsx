import { DELIVERY_STATUS_LABELS, type SettlementPreview, settlementInputSchema } from '@balcao/core/delivery';
import { formatCents } from '@balcao/core/money';
import { ACTION, can } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  Form,
  FormError,
  FormMoneyField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { alignRight, ListTable } from '../../components/listPage.tsx';
import { centsOf } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDate, formatDateTime, shopToday } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import { useOpenRegisters } from '../cash-register/index.ts';
import {
  useConfirmSettlement,
  useDeliveryPanel,
  useSettlement,
  useSettlementPreview,
  useSettlements,
} from './api.ts';

/** Print only the settlement report (the page's menus, filters and history stay off the paper). */
const SETTLEMENT_PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  .settlement-report, .settlement-report * { visibility: visible !important; }
  .settlement-report .no-print { display: none !important; }
  .settlement-report { position: absolute; left: 0; top: 0; width: 100%; border: 0 !important; }
}`;

/** The figures of a settlement (preview or confirmed), as the screen and the printed report show them. */
function Figures({ s, counted }: { s: SettlementPreview; counted?: number }) {
  const rows: [string, number][] = [
    ['Troco entregue na saída', s.changeCents],
    ['Dinheiro recebido nas entregas', s.cashCents],
    ['Cartão/Pix recebido nas entregas', s.otherCents],
    ['Taxas do entregador (a loja deve)', s.owedCents],
    ['A devolver pelo entregador', s.toHandOverCents],
  ];
  return (
    <Box aria-label="Resumo do acerto">
      {rows.map(([label, cents]) => (
        <Box key={label} sx={{ display: 'flex', justifyContent: 'space-between', py: 0.25 }}>
          <Typography>{label}</Typography>
          <Typography sx={{ fontWeight: label.startsWith('A devolver') ? 700 : 400 }}>
            {formatCents(cents)}
          </Typography>
        </Box>
      ))}
      {counted !== undefined && (
        <>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', py: 0.25 }}>
            <Typography>Contado</Typography>
            <Typography>{formatCents(counted)}</Typography>
          </Box>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', py: 0.25 }}>
            <Typography>Diferença</Typography>
            <Typography color={counted - s.toHandOverCents < 0 ? 'error' : undefined}>
              {formatCents(counted - s.toHandOverCents)}
            </Typography>
          </Box>
        </>
      )}
    </Box>
  );
}

function Lines({ s }: { s: SettlementPreview }) {
  // ListTable: on a phone each delivery is a card with every figure labelled (nothing off-screen).
  return (
    <ListTable
      label="Entregas do acerto"
      head={[
        'Pedido',
        'Situação',
        alignRight('Troco'),
        alignRight('Dinheiro'),
        alignRight('Cartão/Pix'),
        alignRight('Taxa'),
      ]}
    >
      {s.lines.map((l) => (
        <TableRow key={l.orderId}>
          <TableCell>
            nº {l.saleNumber} {l.customerName ? `- ${l.customerName}` : ''}
          </TableCell>
          <TableCell>{DELIVERY_STATUS_LABELS[l.status]}</TableCell>
          <TableCell align="right">{formatCents(l.changeCents)}</TableCell>
          <TableCell align="right">{formatCents(l.cashCents)}</TableCell>
          <TableCell align="right">{formatCents(l.otherCents)}</TableCell>
          <TableCell align="right">{l.feeUnknown ? 'a definir' : formatCents(l.feeCents)}</TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}

/** The per-driver settlement (acerto): the API's figures for a period, confirmed by a manager; history and print. */
export default function SettlementPage() {
  const { user } = useSession();
  const canConfirm = can(user?.userType.id, ACTION.settleDrivers);
  const today = shopToday();
  const [driverId, setDriverId] = useState<number | undefined>();
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [shown, setShown] = useState<number | null>(null);
  const drivers = useDeliveryPanel({}).data?.drivers ?? [];
  const preview = useSettlementPreview({ driverId, from, to });
  const history = useSettlements();
  const detail = useSettlement(shown);
  const confirm = useConfirmSettlement();
  // The acerto's cash goes into an open register (issue 30 item 5): the manager's own by default.
  const registers = useOpenRegisters(canConfirm ? user?.client.id : undefined).data?.items ?? [];
  const ownRegister = registers.find((r) => r.user.id === user?.id) ?? null;
  const feedback = useFeedback();
  const p = preview.data;

  // The counted cash is the one input of the confirmation; the period and driver above pick what it confirms.
  const form = useAppForm({
    schema: settlementInputSchema,
    defaultValues: { counted: '', register: '' },
    toInput: (v) => ({
      driverId: p?.driver.id,
      from: p?.from,
      to: p?.to,
      countedCents: v.counted ? centsOf(v.counted) : undefined,
      cashRegisterId: v.register ? Number(v.register) : (ownRegister?.id ?? undefined),
      orderIds: p?.lines.map((l) => l.orderId) ?? [],
    }),
    fieldOf: { countedCents: 'counted', cashRegisterId: 'register' },
  });
  const counted = useWatch({ control: form.control, name: 'counted' });
  const countedCents = counted ? centsOf(counted) : Number.NaN;

  return (
    <Box>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }} className="no-print">
        Acerto de entregadores
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }} className="no-print">
        <TextField
          select
          size="small"
          label="Entregador"
          value={driverId ?? ''}
          onChange={(e) => setDriverId(e.target.value ? Number(e.target.value) : undefined)}
          sx={{ minWidth: 220 }}
        >
          {drivers.map((d) => (
            <MenuItem key={d.id} value={d.id}>
              {d.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="date"
          label="De"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          type="date"
          label="Até"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>

      {preview.isError && <Alert severity="error">{errorMessage(preview.error)}</Alert>}
      {p && (
        <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
          <Typography variant="h6" component="h2">
            {p.driver.name}: {formatDate(`${p.from}T12:00:00`)} a {formatDate(`${p.to}T12:00:00`)}
          </Typography>
          {p.lines.length === 0 ? (
            <Typography color="text.secondary">Nenhuma entrega a acertar neste período.</Typography>
          ) : (
            <>
              <Lines s={p} />
              <Box sx={{ maxWidth: 420, mt: 2 }}>
                <Figures s={p} counted={Number.isNaN(countedCents) ? undefined : countedCents} />
              </Box>
              {canConfirm && (
                <Form
                  form={form}
                  aria-label="Confirmação do acerto"
                  className="no-print"
                  sx={{ mt: 2 }}
                  onSubmit={async (body) => {
                    const s = await confirm.mutateAsync({ body });
                    form.reset({ counted: '', register: '' });
                    setShown(s.id);
                    feedback.show({ severity: 'success', title: 'Acerto confirmado' });
                  }}
                  onError={(message) =>
                    feedback.show({ severity: 'error', title: 'Não foi possível', message })
                  }
                >
                  <FormError />
                  {registers.length === 0 && (
                    <Alert severity="warning" sx={{ mb: 1 }}>
                      Abra um caixa para receber o dinheiro do acerto.
                    </Alert>
                  )}
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                    <FormTextField
                      control={form.control}
                      name="register"
                      select
                      size="small"
                      label="Caixa que recebe"
                      sx={{ minWidth: 220 }}
                      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
                    >
                      {ownRegister ? (
                        <MenuItem value="">Meu caixa ({ownRegister.user.name})</MenuItem>
                      ) : (
                        <MenuItem value="">Escolha o caixa</MenuItem>
                      )}
                      {registers
                        .filter((r) => r.id !== ownRegister?.id)
                        .map((r) => (
                          <MenuItem key={r.id} value={String(r.id)}>
                            Caixa de {r.user.name}
                          </MenuItem>
                        ))}
                    </FormTextField>
                    <FormMoneyField
                      control={form.control}
                      name="counted"
                      size="small"
                      label="Valor contado"
                    />
                    <SubmitButton busyLabel="Confirmar acerto" disabled={Number.isNaN(countedCents)}>
                      Confirmar acerto
                    </SubmitButton>
                  </Stack>
                </Form>
              )}
            </>
          )}
        </Paper>
      )}

      {detail.data && (
        <Paper
          variant="outlined"
          sx={{ p: 2, mb: 3 }}
          aria-label="Relatório do acerto"
          className="settlement-report"
        >
          <style>{SETTLEMENT_PRINT_CSS}</style>
          <Typography variant="h6" component="h2">
            Acerto nº {detail.data.id} - {detail.data.driver.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Período {formatDate(`${detail.data.from}T12:00:00`)} a {formatDate(`${detail.data.to}T12:00:00`)}{' '}
            · confirmado por {detail.data.confirmedBy.name} em {formatDateTime(detail.data.confirmedAt)}
          </Typography>
          <Lines s={detail.data} />
          <Box sx={{ maxWidth: 420, mt: 2 }}>
            <Figures s={detail.data} counted={detail.data.countedCents} />
          </Box>
          <Button sx={{ mt: 2 }} onClick={() => window.print()} className="no-print">
            Imprimir
          </Button>
        </Paper>
      )}

      <Typography variant="h6" component="h2" sx={{ mb: 1 }} className="no-print">
        Histórico
      </Typography>
      {/* ListTable: at 390 px each acerto is a card (the table scrolled the whole page sideways). */}
      <Paper variant="outlined" className="no-print">
        {history.data?.length === 0 ? (
          <Typography sx={{ p: 2 }}>Nenhum acerto confirmado.</Typography>
        ) : (
          <ListTable
            label="Histórico de acertos"
            head={[
              'Confirmado em',
              'Entregador',
              alignRight('A devolver'),
              alignRight('Contado'),
              alignRight('Diferença'),
              '',
            ]}
          >
            {(history.data ?? []).map((h) => (
              <TableRow key={h.id}>
                <TableCell>{formatDateTime(h.confirmedAt)}</TableCell>
                <TableCell>{h.driver.name}</TableCell>
                <TableCell align="right">{formatCents(h.toHandOverCents)}</TableCell>
                <TableCell align="right">{formatCents(h.countedCents)}</TableCell>
                <TableCell align="right">{formatCents(h.differenceCents)}</TableCell>
                <TableCell>
                  <Button size="small" onClick={() => setShown(h.id)}>
                    Ver
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        )}
      </Paper>
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Box>
  );
}
