import {
  COMANDA_STAGE_LABELS,
  type Comanda,
  type ComandaLine,
  comandaCancelInputSchema,
  comandaLineCancelInputSchema,
  comandaMergeInputSchema,
  comandaServiceFeeInputSchema,
  comandaTransferInputSchema,
  comandaUpdateInputSchema,
} from '@balcao/core/comanda';
import { formatCents, parseMoneyToCents } from '@balcao/core/money';
import type { PrintDocument } from '@balcao/core/printing';
import { PRINT_JOB_STATUS_LABELS } from '@balcao/core/printing';
import { REPRINT_MARK } from '@balcao/core/printingText';
import { ACTION, can, WRITE } from '@balcao/core/routes';
import { percentText } from '@balcao/core/settings';
import type { z } from '@balcao/core/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useRef, useState } from 'react';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import {
  type AppForm,
  Form,
  FormError,
  FormMoneyField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/client.ts';
import { formatDateTime, formatTime } from '../../lib/format.ts';
import { useIdFromPath } from '../../lib/useIdFromPath.ts';
import { useSession } from '../auth/index.ts';
import { AddItem } from './AddItem.tsx';
import {
  useAddLine,
  useBoard,
  useCancelComanda,
  useCancelLine,
  useComanda,
  useMergeComanda,
  usePreBill,
  useReprintSend,
  useRequestBill,
  useRetryPrintJob,
  useSendToProduction,
  useSetServiceFee,
  useTransferLine,
  useUpdateComanda,
} from './api.ts';
import { STAGE_COLOR } from './ComandaBoardPage.tsx';
import { PaymentPanel } from './PaymentPanel.tsx';

const NOT_PRINTED = new Set(['pending', 'failed', 'unconfirmed']);

/** A job's title as the tab lists it: a reprint reads "Reimpressão" once (issue 30). */
function jobTitle(job: { title: string; reprintOf: number | null }): string {
  if (job.reprintOf === null) return job.title;
  const bare = job.title.startsWith(`${REPRINT_MARK}: `)
    ? job.title.slice(REPRINT_MARK.length + 2)
    : job.title;
  return `Reimpressão: ${bare}`;
}

/** /dashboard/sale/command/edit/{id}: one tab, everything done to it. */
export default function ComandaPage() {
  const id = useIdFromPath('/dashboard/sale/command/edit');
  const comanda = useComanda(id);
  if (comanda.isPending) return <Loading />;
  if (comanda.isError) return <Alert severity="error">{errorMessage(comanda.error)}</Alert>;
  return <ComandaView comanda={comanda.data} />;
}

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1, gap: 1, flexWrap: 'wrap' }}
      >
        <Typography component="h2" variant="h6">
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Paper>
  );
}

/** One action with its own Idempotency-Key kept until it succeeds (a double tap or retry counts once). */
function useKeyedAction() {
  const key = useRef<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: (key: string) => Promise<unknown>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    key.current ??= newIdempotencyKey();
    try {
      await work(key.current);
      key.current = null;
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, setError };
}

export function ComandaView({ comanda, compact }: { comanda: Comanda; compact?: boolean }) {
  const session = useSession();
  const user = session.user;
  const action = useKeyedAction();
  const sendLines = useSendToProduction();
  const retryJob = useRetryPrintJob();
  const preBill = usePreBill();
  const requestBill = useRequestBill();
  const reprintSend = useReprintSend();
  const addLine = useAddLine();
  const params = { id: comanda.id };
  const [dialog, setDialog] = useState<
    | { kind: 'cancel'; line: ComandaLine }
    | { kind: 'transfer'; line: ComandaLine }
    | { kind: 'merge' }
    | { kind: 'fee' }
    | { kind: 'table' }
    | { kind: 'prebill'; document: PrintDocument; printed: boolean }
    | { kind: 'reprint'; send: Comanda['sends'][number] }
    | { kind: 'cancelTab' }
    | null
  >(null);
  const active = comanda.status === 'active';
  const unsent = comanda.lines.filter((l) => l.status === 'active' && l.sentAt === null);
  const failedJobs = comanda.sends.flatMap((s) => s.jobs.filter((j) => NOT_PRINTED.has(j.status)));
  const canReceive = can(user?.userType.id, WRITE.sales) && !compact;

  const send = () => action.run((key) => sendLines.mutateAsync({ params, idempotencyKey: key }));

  return (
    <Stack sx={{ gap: 2, maxWidth: 1100 }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
          Comanda {comanda.number}
        </Typography>
        {/* Issue 30: one status. An open tab shows its stage; a closed or canceled one, only that. */}
        {comanda.status === 'active' ? (
          <Chip color={STAGE_COLOR[comanda.stage]} label={COMANDA_STAGE_LABELS[comanda.stage]} size="small" />
        ) : (
          <Chip
            label={comanda.status === 'finished' ? 'Fechada' : 'Cancelada'}
            color={comanda.status === 'finished' ? 'success' : 'default'}
            size="small"
          />
        )}
        <Typography color="text.secondary">
          {comanda.tableLabel ? `Mesa ${comanda.tableLabel}` : 'Sem mesa'} · {comanda.people}{' '}
          {comanda.people === 1 ? 'pessoa' : 'pessoas'}
          {comanda.waiter ? ` · ${comanda.waiter.name}` : ''}
          {comanda.customer || comanda.customerName
            ? ` · ${comanda.customer?.name ?? comanda.customerName}`
            : ''}
        </Typography>
      </Stack>
      {action.error && (
        <Alert severity="error" onClose={() => action.setError(null)}>
          {action.error}
        </Alert>
      )}
      {failedJobs.length > 0 && (
        <Alert severity="warning" data-testid="jobs-not-printed">
          {failedJobs.length === 1
            ? 'Um ticket ainda não foi impresso'
            : `${failedJobs.length} tickets ainda não foram impressos`}
          : {failedJobs.map((j) => `${j.title} (${PRINT_JOB_STATUS_LABELS[j.status]})`).join(', ')}.
          <Box sx={{ mt: 1 }}>
            <Button
              size="small"
              variant="outlined"
              onClick={() =>
                action.run(async () => {
                  for (const j of failedJobs.filter((f) => f.status !== 'pending'))
                    await retryJob.mutateAsync({ params: { id: j.id } }).catch(() => null);
                })
              }
            >
              Tentar imprimir de novo
            </Button>
          </Box>
        </Alert>
      )}
      {comanda.sends.some((s) => s.unrouted.length > 0) && (
        <Alert severity="warning">
          Itens sem setor de produção (não impressos): {comanda.sends.flatMap((s) => s.unrouted).join(', ')}.
          Ligue a categoria a um setor em Configurações &gt; Impressoras.
        </Alert>
      )}
      {active && (
        <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
          <Button
            variant="contained"
            size="large"
            onClick={send}
            disabled={action.busy || unsent.length === 0}
          >
            Enviar para produção{unsent.length > 0 ? ` (${unsent.length})` : ''}
          </Button>
          <Button
            variant="outlined"
            onClick={() =>
              action.run(async (key) => {
                const result = await preBill.mutateAsync({ params, idempotencyKey: key });
                setDialog({ kind: 'prebill', document: result.document, printed: result.jobId !== null });
              })
            }
          >
            Conferência
          </Button>
          <Button
            variant="outlined"
            onClick={() => action.run(() => requestBill.mutateAsync({ params }))}
            disabled={comanda.stage !== 'open'}
          >
            Pedir conta
          </Button>
          {!compact && (
            <>
              <Button onClick={() => setDialog({ kind: 'table' })}>Mudar mesa</Button>
              <Button onClick={() => setDialog({ kind: 'merge' })}>Unir comanda</Button>
              <Button onClick={() => setDialog({ kind: 'fee' })}>Taxa e couvert</Button>
            </>
          )}
          {comanda.payments.length === 0 && (
            <Button color="error" onClick={() => setDialog({ kind: 'cancelTab' })}>
              Cancelar comanda
            </Button>
          )}
        </Stack>
      )}
      <Box
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: compact ? '1fr' : { xs: '1fr', md: '3fr 2fr' } }}
      >
        <Stack sx={{ gap: 2 }}>
          <Section title="Itens">
            <Lines
              comanda={comanda}
              onCancel={(line) => setDialog({ kind: 'cancel', line })}
              onTransfer={(line) => setDialog({ kind: 'transfer', line })}
            />
            <Totals comanda={comanda} />
          </Section>
          {active && !compact && user?.client && (
            <Section title="Adicionar item">
              <AddItem
                clientId={user.client.id}
                onAdd={async ({ description: _d, ...line }) => {
                  await addLine.mutateAsync({ params, body: line, idempotencyKey: newIdempotencyKey() });
                }}
              />
            </Section>
          )}
        </Stack>
        <Stack sx={{ gap: 2 }}>
          {!compact && (
            <Section title="Pagamento">
              <PaymentPanel comanda={comanda} canReceive={canReceive} />
            </Section>
          )}
          {comanda.sends.length > 0 && (
            <Section title="Produção">
              <Stack sx={{ gap: 1 }}>
                {comanda.sends.map((s) => (
                  <Box key={s.id}>
                    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                      <Typography variant="body2">
                        {formatTime(s.createdAt)} · {s.createdBy.name}
                      </Typography>
                      <Button size="small" onClick={() => setDialog({ kind: 'reprint', send: s })}>
                        Reimprimir
                      </Button>
                    </Stack>
                    {s.jobs.map((j) => (
                      <Typography
                        key={j.id}
                        variant="body2"
                        color={NOT_PRINTED.has(j.status) ? 'warning.main' : 'text.secondary'}
                      >
                        {jobTitle(j)} — {PRINT_JOB_STATUS_LABELS[j.status]}
                        {j.readyAt ? ` · Pronto às ${formatTime(j.readyAt)}` : ''}
                      </Typography>
                    ))}
                  </Box>
                ))}
              </Stack>
            </Section>
          )}
          {!compact && (
            <Section title="Histórico">
              <Box component="ul" sx={{ m: 0, pl: 2 }}>
                {comanda.events.map((e) => (
                  <li key={e.id}>
                    <Typography variant="body2">
                      {formatDateTime(e.createdAt)} · {e.user.name}: {e.text}
                    </Typography>
                  </li>
                ))}
              </Box>
            </Section>
          )}
        </Stack>
      </Box>
      {dialog?.kind === 'cancel' && (
        <CancelLineDialog comanda={comanda} line={dialog.line} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'transfer' && (
        <TransferDialog comanda={comanda} line={dialog.line} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'merge' && <MergeDialog comanda={comanda} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'fee' && <FeeDialog comanda={comanda} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'table' && <TableDialog comanda={comanda} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'cancelTab' && (
        <CancelComandaDialog comanda={comanda} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'reprint' && (
        <ReprintDialog
          send={dialog.send}
          busy={action.busy}
          onClose={() => setDialog(null)}
          onReprint={(jobId) =>
            action.run(async (key) => {
              await reprintSend.mutateAsync({
                params: { id: comanda.id, sendId: dialog.send.id },
                body: { jobId },
                idempotencyKey: key,
              });
              setDialog(null);
            })
          }
        />
      )}
      {dialog?.kind === 'prebill' && (
        <Dialog open onClose={() => setDialog(null)} maxWidth="xs" fullWidth>
          <DialogTitle>Conferência</DialogTitle>
          <DialogContent>
            {!dialog.printed && <Alert severity="info">Nenhuma impressora configurada: use Imprimir.</Alert>}
            <Box component="pre" sx={{ fontFamily: 'monospace', fontSize: 13, whiteSpace: 'pre-wrap' }}>
              {dialog.document.lines.join('\n')}
            </Box>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => window.print()}>Imprimir</Button>
            <Button onClick={() => setDialog(null)}>Fechar</Button>
          </DialogActions>
        </Dialog>
      )}
    </Stack>
  );
}

function Lines({
  comanda,
  onCancel,
  onTransfer,
}: {
  comanda: Comanda;
  onCancel: (line: ComandaLine) => void;
  onTransfer: (line: ComandaLine) => void;
}) {
  if (comanda.lines.length === 0) return <Typography color="text.secondary">Nenhum item ainda.</Typography>;
  const active = comanda.status === 'active';
  return (
    <Stack sx={{ gap: 1 }} data-testid="comanda-lines">
      {comanda.lines.map((l) => (
        <Box
          key={l.id}
          sx={{
            display: 'flex',
            gap: 1,
            alignItems: 'center',
            flexWrap: 'wrap',
          }}
        >
          <Box sx={{ flex: 1, minWidth: 160 }}>
            {/* A canceled line: struck through in the secondary colour, not faded (an opacity took its
                texts below the contrast minimum). */}
            <Typography
              color={l.status === 'canceled' ? 'text.secondary' : undefined}
              sx={{ textDecoration: l.status === 'canceled' ? 'line-through' : 'none' }}
            >
              {l.quantity} x {l.description}
              {l.variantName ? ` (${l.variantName})` : ''}
            </Typography>
            {l.additionals.length > 0 && (
              <Typography variant="body2" color="text.secondary">
                + {l.additionals.map((a) => a.name).join(', ')}
              </Typography>
            )}
            {l.notes && (
              <Typography variant="body2" color="text.secondary">
                Obs.: {l.notes}
              </Typography>
            )}
            <Typography variant="caption" color="text.secondary">
              {l.status === 'canceled'
                ? `Cancelado${l.cancelReason ? `: ${l.cancelReason}` : ''}`
                : l.sentAt
                  ? `Enviado ${formatTime(l.sentAt)}`
                  : 'Não enviado'}
              {l.paidQuantity > 0 ? ` · pago ${l.paidQuantity}` : ''} · {l.addedBy.name}
            </Typography>
          </Box>
          <Typography
            color={l.status === 'canceled' ? 'text.secondary' : undefined}
            sx={{ fontWeight: 600, textDecoration: l.status === 'canceled' ? 'line-through' : 'none' }}
          >
            {formatCents(l.totalCents)}
          </Typography>
          {active && l.status === 'active' && l.paidQuantity === 0 && (
            <Stack direction="row">
              <Button size="small" onClick={() => onTransfer(l)}>
                Transferir
              </Button>
              <Button size="small" color="error" onClick={() => onCancel(l)}>
                Cancelar
              </Button>
            </Stack>
          )}
        </Box>
      ))}
    </Stack>
  );
}

function Totals({ comanda }: { comanda: Comanda }) {
  const t = comanda.totals;
  const row = (label: string, cents: number, strong = false) => (
    <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
      <Typography sx={{ fontWeight: strong ? 700 : 400 }}>{label}</Typography>
      <Typography sx={{ fontWeight: strong ? 700 : 400 }}>{formatCents(cents)}</Typography>
    </Stack>
  );
  return (
    <Box sx={{ mt: 2, borderTop: 1, borderColor: 'divider', pt: 1 }} data-testid="comanda-totals">
      {row('Itens', t.itemsCents)}
      {row(
        `Taxa de serviço (${percentText(t.serviceFeePercent)})${comanda.serviceFeeReason ? ` — ${comanda.serviceFeeReason}` : ''}`,
        t.serviceFeeCents,
      )}
      {t.couvertCents > 0 &&
        row(`Couvert (${comanda.people} x ${formatCents(comanda.couvertPerPersonCents)})`, t.couvertCents)}
      {row('Total', t.totalCents, true)}
    </Box>
  );
}

/**
 * A dialog of one write on the form kit: the core schema validates before sending, a refused save's
 * issues land under their fields (the rest above them), and it closes once saved.
 */
function FormDialog<V extends FieldValues, Out>({
  title,
  form,
  onSubmit,
  onClose,
  confirmLabel,
  children,
}: {
  title: string;
  form: AppForm<V, Out>;
  onSubmit: (values: Out) => Promise<unknown>;
  onClose: () => void;
  confirmLabel: string;
  children: ReactNode;
}) {
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <Form
        form={form}
        aria-label={title}
        onSubmit={async (values) => {
          await onSubmit(values);
          onClose();
        }}
      >
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          <Stack sx={{ gap: 2, pt: 1 }}>
            <FormError />
            {children}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Voltar</Button>
          <SubmitButton busyLabel="Salvando...">{confirmLabel}</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

type CancelValues = { reason: string; email: string; password: string };

function CancelLineDialog({
  comanda,
  line,
  onClose,
}: {
  comanda: Comanda;
  line: ComandaLine;
  onClose: () => void;
}) {
  const { user } = useSession();
  const cancelLine = useCancelLine();
  const sent = line.sentAt !== null;
  const needsApproval = sent && !can(user?.userType.id, ACTION.approve);
  const form = useAppForm<CancelValues, z.output<typeof comandaLineCancelInputSchema>>({
    schema: comandaLineCancelInputSchema,
    defaultValues: { reason: '', email: '', password: '' },
    toInput: (v) => ({
      reason: v.reason || null,
      ...(needsApproval ? { approval: { email: v.email, password: v.password } } : {}),
    }),
    fieldOf: { 'approval.email': 'email', 'approval.password': 'password' },
  });
  return (
    <FormDialog
      title={`Cancelar ${line.quantity} x ${line.description}`}
      confirmLabel="Cancelar item"
      form={form}
      onClose={onClose}
      onSubmit={(body) => cancelLine.mutateAsync({ params: { id: comanda.id, lineId: line.id }, body })}
    >
      {sent && (
        <Alert severity="info">
          Este item já foi para a produção: um ticket de cancelamento será impresso.
        </Alert>
      )}
      <FormTextField control={form.control} name="reason" label={sent ? 'Motivo' : 'Motivo (opcional)'} />
      {needsApproval && (
        <>
          <Typography variant="body2">Aprovação de um Administrador ou Gerente:</Typography>
          <FormTextField control={form.control} name="email" label="Email do gerente" />
          <FormTextField control={form.control} name="password" label="Senha do gerente" type="password" />
        </>
      )}
    </FormDialog>
  );
}

/** The other open tabs, to pick one (a transfer's destination, the tab to merge). */
function OtherTabSelect<V extends FieldValues, Out>({
  comanda,
  control,
  name,
  label,
}: {
  comanda: Comanda;
  control: Control<V, unknown, Out>;
  name: FieldPath<V>;
  label: string;
}) {
  const board = useBoard();
  const others = (board.data?.tabs ?? []).filter((t) => t.id !== comanda.id);
  return (
    <FormTextField select control={control} name={name} label={label}>
      {others.map((t) => (
        <MenuItem key={t.id} value={String(t.id)}>
          Comanda {t.number}
          {t.tableLabel ? ` · Mesa ${t.tableLabel}` : ''}
        </MenuItem>
      ))}
    </FormTextField>
  );
}

/** A picked tab's id, or undefined (the schema's "required"). */
const tabId = (text: string) => (text === '' ? undefined : Number(text));

type TransferValues = { quantity: string; to: string };

function TransferDialog({
  comanda,
  line,
  onClose,
}: {
  comanda: Comanda;
  line: ComandaLine;
  onClose: () => void;
}) {
  const transferLine = useTransferLine();
  const form = useAppForm<TransferValues, z.output<typeof comandaTransferInputSchema>>({
    schema: comandaTransferInputSchema,
    defaultValues: { quantity: String(line.quantity).replace('.', ','), to: '' },
    toInput: (v) => ({
      lineId: line.id,
      quantity: Number(v.quantity.replace(',', '.')),
      toComandaId: tabId(v.to),
    }),
    fieldOf: { toComandaId: 'to' },
  });
  return (
    <FormDialog
      title={`Transferir ${line.description}`}
      confirmLabel="Transferir"
      form={form}
      onClose={onClose}
      onSubmit={(body) => transferLine.mutateAsync({ params: { id: comanda.id }, body })}
    >
      <FormTextField control={form.control} name="quantity" label={`Quantidade (de ${line.quantity})`} />
      <OtherTabSelect comanda={comanda} control={form.control} name="to" label="Para a comanda" />
    </FormDialog>
  );
}

function MergeDialog({ comanda, onClose }: { comanda: Comanda; onClose: () => void }) {
  const mergeComanda = useMergeComanda();
  const form = useAppForm<{ from: string }, z.output<typeof comandaMergeInputSchema>>({
    schema: comandaMergeInputSchema,
    defaultValues: { from: '' },
    toInput: (v) => ({ fromComandaId: tabId(v.from) }),
    fieldOf: { fromComandaId: 'from' },
  });
  return (
    <FormDialog
      title={`Unir outra comanda à ${comanda.number}`}
      confirmLabel="Unir"
      form={form}
      onClose={onClose}
      onSubmit={(body) => mergeComanda.mutateAsync({ params: { id: comanda.id }, body })}
    >
      <Typography variant="body2">
        Os itens da outra comanda passam para esta, que fica com a conta.
      </Typography>
      <OtherTabSelect comanda={comanda} control={form.control} name="from" label="Comanda a unir" />
    </FormDialog>
  );
}

type FeeValues = { percent: string; reason: string; couvert: string };

function FeeDialog({ comanda, onClose }: { comanda: Comanda; onClose: () => void }) {
  const setServiceFee = useSetServiceFee();
  const form = useAppForm<FeeValues, z.output<typeof comandaServiceFeeInputSchema>>({
    schema: comandaServiceFeeInputSchema,
    defaultValues: {
      percent: (comanda.totals.serviceFeePercent / 100).toFixed(2).replace('.', ','),
      reason: comanda.serviceFeeReason ?? '',
      couvert: formatCents(comanda.couvertPerPersonCents).replace('R$', '').trim(),
    },
    toInput: (v) => ({
      serviceFeePercent: parseMoneyToCents(v.percent),
      reason: v.reason || null,
      couvertPerPersonCents: parseMoneyToCents(v.couvert || '0'),
    }),
    fieldOf: { serviceFeePercent: 'percent', couvertPerPersonCents: 'couvert' },
  });
  return (
    <FormDialog
      title="Taxa de serviço e couvert"
      confirmLabel="Salvar"
      form={form}
      onClose={onClose}
      onSubmit={(body) => setServiceFee.mutateAsync({ params: { id: comanda.id }, body })}
    >
      <FormMoneyField control={form.control} name="percent" label="Taxa" suffix="%" />
      <Button onClick={() => form.setValue('percent', '0')}>Tirar a taxa</Button>
      <FormTextField
        control={form.control}
        name="reason"
        label="Motivo"
        helperText="Obrigatório quando a taxa muda do padrão"
      />
      <FormMoneyField
        control={form.control}
        name="couvert"
        label="Couvert por pessoa"
        helperText={`${comanda.people} ${comanda.people === 1 ? 'pessoa' : 'pessoas'} nesta comanda`}
      />
    </FormDialog>
  );
}

type CancelTabValues = { reason: string; email: string; password: string };

/** "Cancelar comanda" (issue 30): free while nothing was sent; once sent, a reason and a manager. */
function CancelComandaDialog({ comanda, onClose }: { comanda: Comanda; onClose: () => void }) {
  const { user } = useSession();
  const cancelComanda = useCancelComanda();
  const sent = comanda.lines.some((l) => l.status === 'active' && l.sentAt !== null);
  const needsApproval = sent && !can(user?.userType.id, ACTION.approve);
  const form = useAppForm<CancelTabValues, z.output<typeof comandaCancelInputSchema>>({
    schema: comandaCancelInputSchema,
    defaultValues: { reason: '', email: '', password: '' },
    toInput: (v) => ({
      reason: v.reason || null,
      ...(needsApproval ? { approval: { email: v.email, password: v.password } } : {}),
    }),
    fieldOf: { 'approval.email': 'email', 'approval.password': 'password' },
  });
  return (
    <FormDialog
      title={`Cancelar a comanda ${comanda.number}`}
      confirmLabel="Cancelar comanda"
      form={form}
      onClose={onClose}
      onSubmit={(body) => cancelComanda.mutateAsync({ params: { id: comanda.id }, body })}
    >
      <Typography variant="body2">
        {sent
          ? 'Itens desta comanda já foram para a produção: tickets de cancelamento serão impressos.'
          : 'Nenhum item foi para a produção: a comanda some do quadro.'}
      </Typography>
      <FormTextField control={form.control} name="reason" label={sent ? 'Motivo' : 'Motivo (opcional)'} />
      {needsApproval && (
        <>
          <Typography variant="body2">Aprovação de um Administrador ou Gerente:</Typography>
          <FormTextField control={form.control} name="email" label="Email do gerente" />
          <FormTextField control={form.control} name="password" label="Senha do gerente" type="password" />
        </>
      )}
    </FormDialog>
  );
}

/** "Reimprimir" (issue 30): which sector's ticket, or all of them; nothing prints before the choice. */
function ReprintDialog({
  send,
  busy,
  onClose,
  onReprint,
}: {
  send: Comanda['sends'][number];
  busy: boolean;
  onClose: () => void;
  onReprint: (jobId: number | null) => void;
}) {
  const originals = send.jobs.filter((j) => j.reprintOf === null);
  const [choice, setChoice] = useState<string>(originals.length === 1 ? String(originals[0].id) : 'all');
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Reimprimir o envio das {formatTime(send.createdAt)}</DialogTitle>
      <DialogContent>
        <RadioGroup aria-label="Ticket a reimprimir" value={choice} onChange={(_, v) => setChoice(v)}>
          {originals.map((j) => (
            <FormControlLabel key={j.id} value={String(j.id)} control={<Radio />} label={j.title} />
          ))}
          {originals.length > 1 && (
            <FormControlLabel value="all" control={<Radio />} label="Todos os setores" />
          )}
        </RadioGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Voltar</Button>
        <Button
          variant="contained"
          disabled={busy || originals.length === 0}
          onClick={() => onReprint(choice === 'all' ? null : Number(choice))}
        >
          Reimprimir
        </Button>
      </DialogActions>
    </Dialog>
  );
}

type TableValues = { table: string; people: string };

function TableDialog({ comanda, onClose }: { comanda: Comanda; onClose: () => void }) {
  const updateComanda = useUpdateComanda();
  const form = useAppForm<TableValues, z.output<typeof comandaUpdateInputSchema>>({
    schema: comandaUpdateInputSchema,
    defaultValues: { table: comanda.tableLabel ?? '', people: String(comanda.people) },
    toInput: (v) => ({
      tableLabel: v.table,
      people: Number(v.people) || 1,
      customerId: comanda.customer?.id ?? null,
      customerName: comanda.customerName,
      customerPhone: comanda.customerPhone,
      waiterId: comanda.waiter?.id ?? null,
      updatedAt: comanda.updatedAt,
    }),
    fieldOf: { tableLabel: 'table' },
  });
  return (
    <FormDialog
      title="Mesa e pessoas"
      confirmLabel="Salvar"
      form={form}
      onClose={onClose}
      onSubmit={(body) => updateComanda.mutateAsync({ params: { id: comanda.id }, body })}
    >
      <FormTextField control={form.control} name="table" label="Mesa" />
      <FormTextField
        control={form.control}
        name="people"
        label="Pessoas"
        mask={(text) => text.replace(/\D/g, '').slice(0, 3)}
      />
    </FormDialog>
  );
}
