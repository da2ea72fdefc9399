import {
  type Audience,
  CAMPAIGN_STATUS_LABELS,
  CAMPAIGN_VARIABLES,
  type Campaign,
  type CampaignInput,
  campaignInputSchema,
  PACING_DEFAULTS,
  RECIPIENT_STATUS_LABELS,
  RECIPIENT_STATUSES,
  type RecipientStatus,
  renderCampaignMessage,
} from '@balcao/core/campaign';
import { maskPhone } from '@balcao/core/document';
import { can, WRITE } from '@balcao/core/routes';
import { isoToShopLocal, shopLocalToIso } from '@balcao/core/time';
import BlockIcon from '@mui/icons-material/Block';
import ImageIcon from '@mui/icons-material/Image';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useDeferredValue, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type Feedback, FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { alignRight, ExportButton, ListTable, useHandedOverMessage } from '../../components/listPage.tsx';
import { centsOf, centsToInput } from '../../components/MoneyField.tsx';
import { RecordFormCard, RecordFormPage, useEditId } from '../../components/RecordFormPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime, shopTimeZone } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import { useCoupons } from '../coupon/index.ts';
import { TagsInput } from '../customer/index.ts';
import { useNamedOptions } from '../product-category/index.ts';
import {
  type CampaignAction,
  downloadRecipients,
  useAudienceCounts,
  useCampaign,
  useCampaignAction,
  useCreateCampaign,
  useOptOut,
  useRecipients,
  useRemoveCampaignImage,
  useSetCampaignImage,
  useUpdateCampaign,
} from './api.ts';
import { doneShare, STATUS_COLORS } from './CampaignListPage.tsx';

const LIST = '/dashboard/campaign';
const MONTHS = [
  'Janeiro',
  'Fevereiro',
  'Março',
  'Abril',
  'Maio',
  'Junho',
  'Julho',
  'Agosto',
  'Setembro',
  'Outubro',
  'Novembro',
  'Dezembro',
];

/** What the inputs hold: texts (numbers, money, the date and time in the shop's zone). */
type Values = {
  name: string;
  categoryId: string;
  message: string;
  couponId: string;
  audience: {
    birthMonth: string;
    boughtWithinDays: string;
    notBoughtForDays: string;
    spentAbove: string;
    delinquent: 'any' | 'yes' | 'no';
    tags: string[];
  };
  scheduledAt: string;
  pacing: Record<keyof typeof PACING_DEFAULTS, string>;
};

/** The image as chosen in the form: the saved one, a new file (uploaded on save) or none. */
type ImageChoice = { kind: 'keep' } | { kind: 'new'; file: File; preview: string } | { kind: 'remove' };
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** The sending window's fields are times ("08:00"); the other pacing fields are numbers. */
const TIME_FIELDS = ['windowStart', 'windowEnd'];

const intOrNull = (text: string) => (text.trim() === '' ? null : Number(text));
const idOrNull = (text: string) => (text === '' ? null : Number(text));

function audienceOf(a: Values['audience']): Audience {
  return {
    birthMonth: intOrNull(a.birthMonth),
    boughtWithinDays: intOrNull(a.boughtWithinDays),
    notBoughtForDays: intOrNull(a.notBoughtForDays),
    spentAboveCents: a.spentAbove.trim() === '' ? null : centsOf(a.spentAbove),
    delinquent: a.delinquent,
    tags: a.tags,
  };
}

function toInput(v: Values): CampaignInput {
  return {
    name: v.name,
    categoryId: idOrNull(v.categoryId),
    message: v.message,
    couponId: idOrNull(v.couponId),
    audience: audienceOf(v.audience),
    scheduledAt: v.scheduledAt ? (shopLocalToIso(v.scheduledAt, shopTimeZone()) ?? 'inválida') : null,
    pacing: Object.fromEntries(
      Object.entries(v.pacing).map(([k, x]) => [k, TIME_FIELDS.includes(k) ? x : Number(x)]),
    ) as unknown as CampaignInput['pacing'],
  };
}

function toValues(c?: Campaign): Values {
  const pacing = { ...PACING_DEFAULTS, ...c?.pacing };
  const a = c?.audience;
  const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
  return {
    name: c?.name ?? '',
    categoryId: c?.category ? String(c.category.id) : '',
    message: c?.message ?? '',
    couponId: c?.coupon ? String(c.coupon.id) : '',
    audience: {
      birthMonth: text(a?.birthMonth),
      boughtWithinDays: text(a?.boughtWithinDays),
      notBoughtForDays: text(a?.notBoughtForDays),
      spentAbove: a?.spentAboveCents != null ? centsToInput(a.spentAboveCents) : '',
      delinquent: a?.delinquent ?? 'any',
      tags: a?.tags ?? [],
    },
    scheduledAt: c?.scheduledAt ? isoToShopLocal(c.scheduledAt, shopTimeZone()) : '',
    pacing: Object.fromEntries(Object.entries(pacing).map(([k, x]) => [k, String(x)])) as Values['pacing'],
  };
}

/** /dashboard/campaign/new and /edit/{id}: the form before it starts, the progress after. */
export default function CampaignFormPage() {
  const { state, show, close } = useFeedback();
  useHandedOverMessage(show);
  const edit = useEditId(LIST);
  const campaign = useCampaign(edit.id);
  return (
    <RecordFormPage
      edit={edit}
      record={campaign}
      title={['Nova campanha', 'Editar campanha']}
      notFound="Campanha não encontrada"
      maxWidth={960}
      after={<FeedbackSnackbar state={state} onClose={close} />}
    >
      {(c) => (
        <Stack sx={{ gap: 3 }}>
          {c && c.status !== 'draft' && <CampaignProgress campaign={c} onFeedback={show} />}
          {(!c || c.status === 'draft' || c.status === 'scheduled') && (
            <CampaignForm campaign={c} onFeedback={show} />
          )}
        </Stack>
      )}
    </RecordFormPage>
  );
}

function CampaignForm({ campaign, onFeedback }: { campaign?: Campaign; onFeedback: (f: Feedback) => void }) {
  const navigate = useNavigate();
  const { user } = useSession();
  const clientId = user?.client.id;
  const canWrite = can(user?.userType.id, WRITE.campaigns);
  const create = useCreateCampaign();
  const update = useUpdateCampaign();
  const setImageFile = useSetCampaignImage();
  const removeImage = useRemoveCampaignImage();
  const action = useCampaignAction();
  const [image, setImage] = useState<ImageChoice>({ kind: 'keep' });
  const [imageError, setImageError] = useState('');
  const imagePreview =
    image.kind === 'new' ? image.preview : image.kind === 'remove' ? null : (campaign?.imageUrl ?? null);
  const pickImage = (file: File | undefined) => {
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) return setImageError('Envie uma imagem JPEG, PNG ou WebP');
    if (file.size > IMAGE_MAX_BYTES) return setImageError('A imagem deve ter no máximo 5 MB');
    setImageError('');
    if (image.kind === 'new') URL.revokeObjectURL(image.preview);
    setImage({ kind: 'new', file, preview: URL.createObjectURL(file) });
  };
  const categories = useNamedOptions('campaign-category', clientId);
  const coupons = useCoupons(clientId);
  const form = useAppForm<Values, CampaignInput>({
    schema: campaignInputSchema as never,
    defaultValues: toValues(campaign),
    toInput,
    fieldOf: { 'audience.spentAboveCents': 'audience.spentAbove' },
  });
  const { control } = form;
  const message = useWatch({ control, name: 'message' });
  const couponId = useWatch({ control, name: 'couponId' });
  const audience = useDeferredValue(audienceOf(useWatch({ control, name: 'audience' })));
  const counts = useAudienceCounts(audience);
  const coupon = coupons.data?.find((c) => String(c.id) === couponId);
  const preview = renderCampaignMessage(message || '', {
    name: 'Maria da Silva',
    shop: user?.client.name ?? '',
    coupon: coupon?.code ?? '{cupom}',
  });

  const submit = async (values: CampaignInput) => {
    let saved = campaign
      ? await update.mutateAsync({
          params: { id: campaign.id },
          body: { ...values, updatedAt: campaign.updatedAt },
        })
      : await create.mutateAsync({ body: values });
    // The image goes after the record (it needs the campaign's id): a new file, or its removal.
    let imageFailed = '';
    if (image.kind === 'new' || (image.kind === 'remove' && saved.imageUrl)) {
      try {
        const params = { id: saved.id };
        saved =
          image.kind === 'new'
            ? await setImageFile.mutateAsync({ params, file: image.file })
            : await removeImage.mutateAsync({ params });
        setImage({ kind: 'keep' });
      } catch (error) {
        imageFailed = errorMessage(error);
      }
    }
    if (campaign) {
      form.reset(toValues(saved));
      onFeedback(
        imageFailed
          ? { severity: 'error', title: 'Campanha salva, mas a imagem não foi enviada', message: imageFailed }
          : { severity: 'success', title: 'Campanha editada com sucesso' },
      );
    } else
      navigate(`${LIST}/edit/${saved.id}`, {
        replace: true,
        state: {
          message: imageFailed
            ? `Campanha criada com sucesso, mas a imagem não foi enviada: ${imageFailed}`
            : 'Campanha criada com sucesso',
        },
      });
  };

  const start = async () => {
    if (!campaign) return;
    try {
      const started = await action.run(campaign.id, 'start');
      onFeedback({
        severity: 'success',
        title: started.status === 'scheduled' ? 'Campanha agendada' : 'Envio iniciado',
      });
    } catch (error) {
      onFeedback({
        severity: 'error',
        title: 'Não foi possível iniciar a campanha',
        message: errorMessage(error),
      });
    }
  };

  const grid = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 } as const;
  return (
    <RecordFormCard
      form={form}
      onSubmit={submit}
      onFeedback={onFeedback}
      errorTitle={campaign ? 'Erro ao editar campanha' : 'Erro ao criar campanha'}
      label="Campanha"
      canWrite={canWrite}
      readOnlyNote="Você pode ver esta campanha, mas não alterá-la."
      list={LIST}
      submit={
        <Stack direction="row" sx={{ gap: 2 }}>
          <SubmitButton busyLabel="Salvando...">{campaign ? 'Salvar' : 'Cadastrar'}</SubmitButton>
          {campaign && (
            <Button
              variant="contained"
              color="success"
              onClick={start}
              disabled={action.isPending || form.formState.isDirty || image.kind !== 'keep'}
            >
              {campaign.scheduledAt && new Date(campaign.scheduledAt) > new Date()
                ? 'Agendar envio'
                : 'Enviar agora'}
            </Button>
          )}
        </Stack>
      }
    >
      {campaign?.status === 'scheduled' && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Agendada para {campaign.scheduledAt ? formatDateTime(campaign.scheduledAt) : ''}
        </Alert>
      )}
      <Stack sx={{ gap: 2 }}>
        <Box sx={grid}>
          <FormTextField control={control} name="name" label="Nome" required />
          <FormTextField control={control} name="categoryId" label="Categoria" select>
            <MenuItem value="">Sem categoria</MenuItem>
            {(categories.data ?? []).map((c) => (
              <MenuItem key={c.id} value={String(c.id)}>
                {c.name}
              </MenuItem>
            ))}
          </FormTextField>
        </Box>
        <Box sx={grid}>
          <Stack sx={{ gap: 1 }}>
            <FormTextField control={control} name="message" label="Mensagem" required multiline minRows={5} />
            <Typography variant="caption" color="text.secondary">
              Variáveis: {CAMPAIGN_VARIABLES.join(', ')}
            </Typography>
          </Stack>
          <Paper variant="outlined" sx={{ p: 2, bgcolor: 'action.hover' }} aria-label="Pré-visualização">
            <Typography variant="overline">Pré-visualização</Typography>
            <Typography sx={{ whiteSpace: 'pre-wrap' }} data-testid="campaign-preview">
              {preview}
            </Typography>
          </Paper>
        </Box>
        <Box sx={grid}>
          <Stack sx={{ gap: 1 }} aria-label="Imagem da campanha">
            <Typography variant="subtitle2">Imagem (opcional)</Typography>
            {imagePreview && (
              <Box
                component="img"
                src={imagePreview}
                alt="Pré-visualização da imagem"
                sx={{
                  maxWidth: '100%',
                  maxHeight: 200,
                  objectFit: 'contain',
                  borderRadius: 1,
                  alignSelf: 'flex-start',
                }}
              />
            )}
            {canWrite && (
              <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
                <Button variant="outlined" component="label" startIcon={<ImageIcon />}>
                  {imagePreview ? 'Trocar imagem' : 'Escolher imagem'}
                  <input
                    hidden
                    type="file"
                    accept={IMAGE_TYPES.join(',')}
                    aria-label="Arquivo da imagem"
                    onChange={(e) => {
                      pickImage(e.target.files?.[0]);
                      e.target.value = '';
                    }}
                  />
                </Button>
                {imagePreview && (
                  <Button color="error" onClick={() => setImage({ kind: 'remove' })}>
                    Remover imagem
                  </Button>
                )}
              </Stack>
            )}
            <Typography variant="caption" color={imageError ? 'error' : 'text.secondary'}>
              {imageError || 'JPEG, PNG ou WebP até 5 MB; vai com cada mensagem, com o texto como legenda.'}
            </Typography>
          </Stack>
          <FormTextField control={control} name="couponId" label="Cupom" select>
            <MenuItem value="">Sem cupom</MenuItem>
            {(coupons.data ?? [])
              .filter((c) => c.status === 'active')
              .map((c) => (
                <MenuItem key={c.id} value={String(c.id)}>
                  {c.code}
                </MenuItem>
              ))}
          </FormTextField>
        </Box>

        <Typography variant="h6" sx={{ mt: 1 }}>
          Público
        </Typography>
        <Box sx={{ ...grid, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
          <FormTextField control={control} name="audience.birthMonth" label="Aniversariantes do mês" select>
            <MenuItem value="">Todos</MenuItem>
            {MONTHS.map((m, i) => (
              <MenuItem key={m} value={String(i + 1)}>
                {m}
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField
            control={control}
            name="audience.boughtWithinDays"
            label="Compraram nos últimos (dias)"
            inputMode="numeric"
          />
          <FormTextField
            control={control}
            name="audience.notBoughtForDays"
            label="Não compram há (dias)"
            inputMode="numeric"
          />
          <FormTextField
            control={control}
            name="audience.spentAbove"
            label="Gastaram acima de (R$)"
            inputMode="decimal"
          />
          <FormTextField control={control} name="audience.delinquent" label="Inadimplência" select>
            <MenuItem value="any">Todos</MenuItem>
            <MenuItem value="yes">Só inadimplentes</MenuItem>
            <MenuItem value="no">Só adimplentes</MenuItem>
          </FormTextField>
          <Box sx={{ gridColumn: { sm: 'span 2' } }}>
            <Controller
              control={control}
              name="audience.tags"
              render={({ field, fieldState }) => (
                <TagsInput
                  label="Etiquetas (segmentos)"
                  onlyKnown
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={!!fieldState.error}
                  helperText={fieldState.error?.message ?? 'Clientes com qualquer uma das etiquetas'}
                />
              )}
            />
          </Box>
        </Box>
        {counts.data && (
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }} aria-label="Contadores do público">
            <Chip color="primary" label={`${counts.data.total} clientes`} />
            <Chip label={`Inadimplentes: ${counts.data.delinquent}`} />
            <Chip label={`Adimplentes: ${counts.data.notDelinquent}`} />
            <Chip
              color="success"
              variant="outlined"
              label={`WhatsApp válido: ${counts.data.validWhatsapp}`}
            />
            <Chip
              color="error"
              variant="outlined"
              label={`WhatsApp inválido: ${counts.data.invalidWhatsapp}`}
            />
            <Chip variant="outlined" label={`Não verificados: ${counts.data.uncheckedWhatsapp}`} />
            <Chip variant="outlined" label={`Não querem receber: ${counts.data.optedOut}`} />
          </Stack>
        )}

        <Typography variant="h6" sx={{ mt: 1 }}>
          Envio
        </Typography>
        <Box sx={grid}>
          <FormTextField
            control={control}
            name="scheduledAt"
            label="Agendar para (deixe vazio para enviar agora)"
            type="datetime-local"
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Box>
        <Box sx={{ ...grid, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(6, 1fr)' } }}>
          <FormTextField
            control={control}
            name="pacing.minDelaySeconds"
            label="Intervalo mín. (s)"
            inputMode="numeric"
          />
          <FormTextField
            control={control}
            name="pacing.maxDelaySeconds"
            label="Intervalo máx. (s)"
            inputMode="numeric"
          />
          <FormTextField
            control={control}
            name="pacing.pauseEvery"
            label="Pausa a cada"
            inputMode="numeric"
          />
          <FormTextField control={control} name="pacing.pauseSeconds" label="Pausa (s)" inputMode="numeric" />
          <FormTextField
            control={control}
            name="pacing.hourlyCap"
            label="Limite por hora"
            inputMode="numeric"
          />
          <FormTextField
            control={control}
            name="pacing.dailyCap"
            label="Limite por dia"
            inputMode="numeric"
          />
        </Box>
        <Box sx={grid}>
          <FormTextField
            control={control}
            name="pacing.windowStart"
            label="Enviar a partir de"
            type="time"
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <FormTextField
            control={control}
            name="pacing.windowEnd"
            label="Enviar até"
            type="time"
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Box>
        <Typography variant="caption" color="text.secondary">
          Os envios seguem um de cada vez, com intervalos aleatórios e pausas, para proteger o número de
          bloqueios. Fora da janela de envio (entre 06:00 e 22:00, no fuso da loja) nada é enviado: a campanha
          espera a próxima abertura.
        </Typography>
        {campaign?.warmup && <WarmupNote warmup={campaign.warmup} />}
      </Stack>
    </RecordFormCard>
  );
}

/** The number's warm-up: a new number sends fewer messages a day over its first days. */
function WarmupNote({ warmup }: { warmup: NonNullable<Campaign['warmup']> }) {
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="campaign-warmup">
      Número em aquecimento: dia {warmup.day} de {warmup.days}. Hoje ele envia no máximo {warmup.dailyCap}{' '}
      mensagens; o limite cresce a cada dia para evitar bloqueios.
    </Alert>
  );
}

const fmt = (iso: string | null) => (iso ? formatDateTime(iso) : '-');

function CampaignProgress({
  campaign,
  onFeedback,
}: {
  campaign: Campaign;
  onFeedback: (f: Feedback) => void;
}) {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.campaigns);
  const action = useCampaignAction();
  const optOut = useOptOut();
  const [status, setStatus] = useState<RecipientStatus | ''>('');
  const [page, setPage] = useState(1);
  const recipients = useRecipients(campaign.id, { page, pageSize: 20, status: status || undefined });
  const p = campaign.progress;
  const run = async (a: CampaignAction, done: string) => {
    try {
      await action.run(campaign.id, a);
      onFeedback({ severity: 'success', title: done });
    } catch (error) {
      onFeedback({
        severity: 'error',
        title: 'Não foi possível concluir a ação',
        message: errorMessage(error),
      });
    }
  };
  const share = doneShare(p);
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" sx={{ flex: 1 }}>
          {campaign.name}
        </Typography>
        <Chip color={STATUS_COLORS[campaign.status]} label={CAMPAIGN_STATUS_LABELS[campaign.status]} />
      </Stack>
      {campaign.warmup && ['scheduled', 'running', 'paused'].includes(campaign.status) && (
        <WarmupNote warmup={campaign.warmup} />
      )}
      {campaign.windowOpensAt && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="campaign-quiet">
          Fora da janela de envio ({campaign.pacing.windowStart} às {campaign.pacing.windowEnd}): o envio
          recomeça em {fmt(campaign.windowOpensAt)}.
        </Alert>
      )}
      {campaign.pauseReason && campaign.status === 'paused' && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {campaign.pauseReason}
        </Alert>
      )}
      <LinearProgress
        variant="determinate"
        value={share}
        sx={{ height: 10, borderRadius: 5 }}
        aria-label="Progresso do envio"
        aria-valuetext={`${share}%`}
      />
      <Stack direction="row" sx={{ gap: 3, mt: 2, flexWrap: 'wrap' }} data-testid="campaign-counters">
        <Typography>Enviadas: {p.success}</Typography>
        <Typography>Falharam: {p.failed}</Typography>
        <Typography>Restantes: {p.waiting + p.sending}</Typography>
        <Typography>Ignoradas: {p.skipped}</Typography>
        <Typography>Total: {p.total}</Typography>
        {campaign.estimatedEndAt && <Typography>Término estimado: {fmt(campaign.estimatedEndAt)}</Typography>}
        {['scheduled', 'running', 'paused'].includes(campaign.status) && (
          <Typography>
            Janela de envio: {campaign.pacing.windowStart} às {campaign.pacing.windowEnd}
          </Typography>
        )}
        {campaign.finishedAt && <Typography>Concluída em: {fmt(campaign.finishedAt)}</Typography>}
      </Stack>
      {canWrite && (
        <Stack direction="row" sx={{ gap: 1, mt: 2, flexWrap: 'wrap' }}>
          {campaign.status === 'running' && (
            <Button
              variant="outlined"
              onClick={() => run('pause', 'Campanha pausada')}
              disabled={action.isPending}
            >
              Pausar
            </Button>
          )}
          {campaign.status === 'paused' && (
            <Button
              variant="contained"
              onClick={() => run('resume', 'Campanha retomada')}
              disabled={action.isPending}
            >
              Retomar
            </Button>
          )}
          {['scheduled', 'running', 'paused'].includes(campaign.status) && (
            <Button
              color="error"
              onClick={() => run('cancel', 'Campanha cancelada')}
              disabled={action.isPending}
            >
              Cancelar campanha
            </Button>
          )}
        </Stack>
      )}

      {p.total > 0 && (
        <Box sx={{ mt: 3 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, mb: 1, alignItems: { sm: 'center' } }}>
            <Typography variant="subtitle1" sx={{ flex: 1 }}>
              Destinatários
            </Typography>
            <TextField
              select
              size="small"
              label="Situação"
              slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as RecipientStatus | '');
                setPage(1);
              }}
              sx={{ minWidth: 160 }}
            >
              <MenuItem value="">Todas</MenuItem>
              {RECIPIENT_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {RECIPIENT_STATUS_LABELS[s]}
                </MenuItem>
              ))}
            </TextField>
            <ExportButton
              variant="outlined"
              download={() => downloadRecipients(campaign.id)}
              onError={(error) =>
                onFeedback({ severity: 'error', title: 'Erro ao exportar', message: errorMessage(error) })
              }
            />
          </Stack>
          {/* ListTable: on a phone each recipient is a card, every column labelled, none off-screen. */}
          <ListTable
            label="Destinatários"
            head={[
              'Nome',
              'WhatsApp',
              'Situação',
              'Motivo',
              'Enviada em',
              ...(canWrite ? [alignRight('Ações')] : []),
            ]}
          >
            {(recipients.data?.items ?? []).map((r) => (
              <TableRow key={r.id}>
                <TableCell>{r.name}</TableCell>
                <TableCell>{maskPhone(r.phone)}</TableCell>
                <TableCell>{RECIPIENT_STATUS_LABELS[r.status]}</TableCell>
                <TableCell>{r.reason ?? ''}</TableCell>
                <TableCell>{fmt(r.sentAt)}</TableCell>
                {canWrite && (
                  <TableCell align="right">
                    <Tooltip title="Não enviar mais para este número">
                      <IconButton
                        aria-label={`Não enviar mais para ${r.name}`}
                        disabled={optOut.isPending}
                        onClick={() =>
                          optOut.mutate(
                            { body: { number: r.phone } },
                            {
                              onSuccess: () =>
                                onFeedback({
                                  severity: 'success',
                                  title: 'Este número não receberá mais campanhas',
                                }),
                              onError: (error) =>
                                onFeedback({
                                  severity: 'error',
                                  title: 'Não foi possível marcar',
                                  message: errorMessage(error),
                                }),
                            },
                          )
                        }
                      >
                        <BlockIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </ListTable>
          {recipients.data && recipients.data.total > 20 && (
            <Stack direction="row" sx={{ justifyContent: 'flex-end', gap: 1, mt: 1 }}>
              <Button disabled={page === 1} onClick={() => setPage(page - 1)}>
                Anterior
              </Button>
              <Button disabled={page * 20 >= recipients.data.total} onClick={() => setPage(page + 1)}>
                Próxima
              </Button>
            </Stack>
          )}
        </Box>
      )}
    </Paper>
  );
}
