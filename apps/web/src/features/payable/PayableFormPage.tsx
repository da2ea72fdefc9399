import { formatBoletoLine, parseBoleto } from '@balcao/core/boleto';
import { formatCents } from '@balcao/core/money';
import {
  categoriesOffered,
  DRE_GROUP_LABELS,
  EDIT_SCOPE_LABELS,
  EDIT_SCOPES,
  PAY_METHOD_LABELS,
  type Payable,
  type PayableInput,
  payableInputSchema,
} from '@balcao/core/payable';
import { can, WRITE } from '@balcao/core/routes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type Feedback, FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  Form,
  FormError,
  FormMoneyField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { centsOf, centsToInput } from '../../components/MoneyField.tsx';
import { RecordFormPage, useEditId } from '../../components/RecordFormPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDate, shopToday } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import { AttachmentsSection } from './AttachmentsSection.tsx';
import {
  useCreatePayable,
  useDeletePayable,
  usePayable,
  usePayableCategories,
  useReversePayment,
  useSuppliers,
  useUpdatePayable,
} from './api.ts';
import { PayDialog } from './PayDialog.tsx';

const LIST = '/dashboard/payable';

/** Conta a pagar at /dashboard/payable/new and /dashboard/payable/edit/{id} (issue 34). */
export default function PayableFormPage() {
  const { state, show, close } = useFeedback();
  const edit = useEditId(LIST);
  const payable = usePayable(edit.id);
  return (
    <RecordFormPage
      edit={edit}
      record={payable}
      title={['Nova conta a pagar', 'Editar conta a pagar']}
      notFound="Conta a pagar não encontrada"
      maxWidth={820}
      after={<FeedbackSnackbar state={state} onClose={close} />}
    >
      {(payable) => <PayableForm payable={payable} onFeedback={show} />}
    </RecordFormPage>
  );
}

type Values = {
  supplierId: string;
  categoryId: string;
  description: string;
  amount: string;
  dueDate: string;
  competenceMonth: string;
  documentNumber: string;
  notes: string;
  boletoLine: string;
  installments: string;
  recurrence: 'none' | 'monthly';
  occurrences: string;
  scope: 'this' | 'following' | 'all';
};

function valuesOf(p?: Payable): Values {
  return {
    supplierId: p?.supplier ? String(p.supplier.id) : '',
    categoryId: p ? String(p.category.id) : '',
    description: p?.description ?? '',
    amount: p ? centsToInput(p.amountCents) : '',
    dueDate: p?.dueDate ?? '',
    competenceMonth: p?.competenceMonth ?? '',
    documentNumber: p?.documentNumber ?? '',
    notes: p?.notes ?? '',
    boletoLine: p?.boletoLine ? formatBoletoLine(p.boletoLine) : '',
    installments: '1',
    recurrence: 'none',
    occurrences: '12',
    scope: 'this',
  };
}

const wholeOr = (text: string, fallback: number) => (/^\d+$/.test(text.trim()) ? Number(text) : fallback);

function PayableForm({ payable, onFeedback }: { payable?: Payable; onFeedback: (f: Feedback) => void }) {
  const navigate = useNavigate();
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.finance);
  const categories = usePayableCategories();
  const suppliers = useSuppliers();
  const create = useCreatePayable();
  const update = useUpdatePayable();
  const [current, setCurrent] = useState(payable);
  const [paying, setPaying] = useState<Payable | null>(null);
  const form = useAppForm({
    schema: payableInputSchema,
    defaultValues: valuesOf(payable),
    toInput: (v: Values) => {
      const cents = centsOf(v.amount);
      return {
        supplierId: v.supplierId ? Number(v.supplierId) : null,
        categoryId: v.categoryId ? Number(v.categoryId) : undefined,
        description: v.description,
        amountCents: Number.isNaN(cents) ? -1 : cents,
        dueDate: v.dueDate,
        competenceMonth: v.competenceMonth || null,
        documentNumber: v.documentNumber,
        notes: v.notes,
        boletoLine: v.boletoLine,
        installments: wholeOr(v.installments, 0),
        recurrence: v.recurrence,
        occurrences: wholeOr(v.occurrences, 0),
      };
    },
    fieldOf: { amountCents: 'amount' },
  });
  const { control } = form;
  const boletoText = useWatch({ control, name: 'boletoLine' });
  const recurrence = useWatch({ control, name: 'recurrence' });
  const boleto = boletoText?.replace(/\D/g, '').length >= 44 ? parseBoleto(boletoText, shopToday()) : null;

  const useBoleto = () => {
    if (!boleto?.ok) return;
    if (boleto.boleto.amountCents)
      form.setValue('amount', centsToInput(boleto.boleto.amountCents), { shouldDirty: true });
    if (boleto.boleto.dueDate) form.setValue('dueDate', boleto.boleto.dueDate, { shouldDirty: true });
    form.setValue('boletoLine', formatBoletoLine(boleto.boleto.line), { shouldDirty: true });
  };

  const submit = async (values: PayableInput) => {
    if (current) {
      const { installments: _i, recurrence: _r, occurrences: _o, ...fields } = values;
      const saved = await update.mutateAsync({
        params: { id: current.id },
        body: { ...fields, scope: form.getValues('scope'), updatedAt: current.updatedAt },
      });
      setCurrent(saved);
      form.reset(valuesOf(saved));
      onFeedback({ severity: 'success', title: 'Conta a pagar salva' });
    } else {
      const saved = await create.mutateAsync({ body: values });
      const count = saved.items.length;
      navigate(LIST, {
        state: { message: count > 1 ? `${count} contas a pagar cadastradas` : 'Conta a pagar cadastrada' },
      });
    }
  };

  const locked = !canWrite || current?.status === 'paid';
  return (
    <Stack spacing={2}>
      <Paper sx={{ p: { xs: 2, sm: 3 } }}>
        <Form form={form} onSubmit={submit} aria-label="Conta a pagar">
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
            <Box sx={{ gridColumn: '1 / -1' }}>
              <FormTextField
                control={control}
                name="boletoLine"
                label="Linha digitável ou código de barras do boleto"
                disabled={locked}
                helperText={
                  boleto && !boleto.ok ? boleto.message : 'Opcional: cole a linha para ler valor e vencimento'
                }
                error={Boolean(boleto && !boleto.ok)}
              />
              {boleto?.ok && (
                <Alert
                  severity="info"
                  sx={{ mt: 1 }}
                  action={
                    !locked && (
                      <Button color="inherit" size="small" onClick={useBoleto}>
                        Usar valor e vencimento
                      </Button>
                    )
                  }
                >
                  Boleto válido
                  {boleto.boleto.amountCents ? `: ${formatCents(boleto.boleto.amountCents)}` : ''}
                  {boleto.boleto.dueDate
                    ? `, vence em ${formatDate(`${boleto.boleto.dueDate}T12:00:00Z`)}`
                    : ''}
                </Alert>
              )}
            </Box>
            <FormTextField
              control={control}
              name="description"
              label="Descrição"
              required
              disabled={locked}
            />
            <FormTextField
              control={control}
              name="categoryId"
              label="Categoria"
              select
              required
              disabled={locked}
            >
              {categoriesOffered(categories.data ?? [], payable?.category.id).map((c) => (
                <MenuItem key={c.id} value={String(c.id)}>
                  {c.name} ({DRE_GROUP_LABELS[c.group]})
                </MenuItem>
              ))}
            </FormTextField>
            <FormTextField control={control} name="supplierId" label="Fornecedor" select disabled={locked}>
              <MenuItem value="">Sem fornecedor</MenuItem>
              {(suppliers.data?.items ?? []).map((s) => (
                <MenuItem key={s.id} value={String(s.id)}>
                  {s.name}
                </MenuItem>
              ))}
            </FormTextField>
            <FormMoneyField control={control} name="amount" label="Valor" required disabled={locked} />
            <FormTextField
              control={control}
              name="dueDate"
              label="Vencimento"
              type="date"
              required
              disabled={locked}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <FormTextField
              control={control}
              name="competenceMonth"
              label="Competência"
              type="month"
              disabled={locked}
              helperText="O mês do DRE; o do vencimento se vazio"
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <FormTextField
              control={control}
              name="documentNumber"
              label="Nº do documento"
              disabled={locked}
            />
            {!current && (
              <>
                <FormTextField
                  control={control}
                  name="installments"
                  label="Parcelas"
                  type="number"
                  disabled={recurrence === 'monthly'}
                />
                <FormTextField control={control} name="recurrence" label="Repetir" select>
                  <MenuItem value="none">Não repetir</MenuItem>
                  <MenuItem value="monthly">Todo mês</MenuItem>
                </FormTextField>
                {recurrence === 'monthly' && (
                  <FormTextField
                    control={control}
                    name="occurrences"
                    label="Por quantos meses"
                    type="number"
                  />
                )}
              </>
            )}
            {current?.series && !locked && (
              <FormTextField
                control={control}
                name="scope"
                label={`Aplicar a (${current.series.index}/${current.series.count})`}
                select
              >
                {EDIT_SCOPES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {EDIT_SCOPE_LABELS[s]}
                  </MenuItem>
                ))}
              </FormTextField>
            )}
            <Box sx={{ gridColumn: '1 / -1' }}>
              <FormTextField
                control={control}
                name="notes"
                label="Observações"
                multiline
                minRows={2}
                disabled={locked}
              />
            </Box>
          </Box>
          <FormError />
          <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', gap: 1 }}>
            {!locked && <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>}
            {canWrite && current && current.status !== 'paid' && (
              <Button variant="outlined" onClick={() => setPaying(current)}>
                Pagar
              </Button>
            )}
            <Button onClick={() => navigate(LIST)}>Voltar para a lista</Button>
          </Stack>
        </Form>
      </Paper>
      {current && (
        <AttachmentsSection
          payableId={current.id}
          attachments={current.attachments}
          canWrite={canWrite}
          onChange={(attachments) => setCurrent({ ...current, attachments })}
          onFeedback={onFeedback}
        />
      )}
      {current && (
        <Payments payable={current} canWrite={canWrite} onChange={setCurrent} onFeedback={onFeedback} />
      )}
      {current && canWrite && current.paidCents === 0 && (
        <DeleteBox payable={current} onFeedback={onFeedback} />
      )}
      <PayDialog
        payable={paying}
        onClose={() => setPaying(null)}
        onPaid={(p) => {
          setCurrent(p);
          form.reset(valuesOf(p));
          onFeedback({ severity: 'success', title: 'Pagamento registrado' });
        }}
      />
    </Stack>
  );
}

function Payments({
  payable,
  canWrite,
  onChange,
  onFeedback,
}: {
  payable: Payable;
  canWrite: boolean;
  onChange: (p: Payable) => void;
  onFeedback: (f: Feedback) => void;
}) {
  const reverse = useReversePayment();
  if (payable.payments.length === 0) return null;
  return (
    <Paper sx={{ p: 2 }}>
      <Typography component="h2" variant="h6">
        Pagamentos
      </Typography>
      <List dense aria-label="Pagamentos">
        {payable.payments.map((p) => (
          <ListItem
            key={p.id}
            secondaryAction={
              canWrite &&
              !p.reversedAt && (
                <Button
                  size="small"
                  color="error"
                  onClick={async () => {
                    try {
                      onChange(await reverse.mutateAsync({ params: { id: payable.id, paymentId: p.id } }));
                      onFeedback({ severity: 'success', title: 'Pagamento estornado' });
                    } catch (error) {
                      onFeedback({
                        severity: 'error',
                        title: 'Erro ao estornar',
                        message: errorMessage(error),
                      });
                    }
                  }}
                >
                  Estornar
                </Button>
              )
            }
          >
            <ListItemText
              primary={`${formatDate(`${p.paidOn}T12:00:00Z`)}: ${formatCents(p.totalCents)} (${PAY_METHOD_LABELS[p.method]}${p.source === 'register' ? ', do caixa' : p.bankAccount ? `, da conta ${p.bankAccount.name}` : ''})`}
              secondary={p.reversedAt ? 'Estornado' : `Por ${p.user.name}`}
            />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

function DeleteBox({ payable, onFeedback }: { payable: Payable; onFeedback: (f: Feedback) => void }) {
  const navigate = useNavigate();
  const remove = useDeletePayable();
  const [scope, setScope] = useState<'this' | 'following' | 'all'>('this');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      {payable.series && (
        <Box
          component="select"
          aria-label="Excluir quais"
          value={scope}
          onChange={(e) => setScope(e.target.value as typeof scope)}
        >
          {EDIT_SCOPES.map((s) => (
            <option key={s} value={s}>
              {EDIT_SCOPE_LABELS[s]}
            </option>
          ))}
        </Box>
      )}
      <Button
        color="error"
        onClick={async () => {
          try {
            await remove.mutateAsync({ params: { id: payable.id }, query: { scope } });
            navigate(LIST, { state: { message: 'Conta a pagar excluída' } });
          } catch (error) {
            onFeedback({ severity: 'error', title: 'Erro ao excluir', message: errorMessage(error) });
          }
        }}
      >
        Excluir
      </Button>
    </Stack>
  );
}
