import { can, WRITE } from '@balcao/core/routes';
import {
  INSTANCE_STATE_LABELS,
  WHATSAPP_MESSAGES,
  type WhatsappConnect,
  type WhatsappInstanceView,
  type WhatsappQr,
  whatsappConnectInputSchema,
  whatsappDigits,
  whatsappTestInputSchema,
} from '@balcao/core/whatsapp';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { type Feedback, FeedbackSnackbar, useFeedback } from '../../../components/FeedbackSnackbar.tsx';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../../components/form.tsx';
import { LoadError } from '../../../components/LoadError.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../auth/index.ts';
import { useInstanceActions, useSendTest, useWhatsappInstance, whatsappQueries } from './api.ts';

/** A QR code lasts about 40 s in WhatsApp: a new one is asked for before that while connecting. */
const QR_REFRESH_MS = 30_000;

const STATE_COLORS = { open: 'success', connecting: 'warning', close: 'default', refused: 'error' } as const;

/** /dashboard/settings/whatsapp: the shop's instance, its QR code, live state and a test message. */
export default function WhatsappSettingsPage() {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.settings);
  const queryClient = useQueryClient();
  const { state, show, close } = useFeedback();
  const instance = useWhatsappInstance();
  const [qr, setQr] = useState<WhatsappQr | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const settle = (answer: WhatsappConnect | WhatsappInstanceView) => {
    const view = 'instance' in answer ? answer.instance : answer;
    queryClient.setQueryData(whatsappQueries.instance().queryKey, view);
    if ('qr' in answer) setQr(answer.qr);
  };
  const call = useInstanceActions({
    onAnswer: settle,
    onError: (error) =>
      show({ severity: 'error', title: 'Não foi possível concluir', message: errorMessage(error) }),
  });

  const view = instance.data;
  const connecting = view?.created && view.state !== 'open' && view.state !== 'refused';
  // While connecting, a fresh QR code before the last one expires (and the first one on arrival).
  const refresh = call.connect;
  const hasQr = qr !== null;
  useEffect(() => {
    if (!connecting || !canWrite) return;
    const ask = () => refresh();
    if (!hasQr) ask();
    const timer = setInterval(ask, QR_REFRESH_MS);
    return () => clearInterval(timer);
  }, [connecting, canWrite, hasQr, refresh]);
  useEffect(() => {
    if (view?.state === 'open') setQr(null);
  }, [view?.state]);

  if (instance.isPending) return <Loading />;
  if (instance.isError) return <LoadError error={instance.error} onRetry={() => instance.refetch()} />;
  const data = instance.data;

  return (
    <Box sx={{ maxWidth: 760 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        WhatsApp
      </Typography>
      <Paper sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 2, mb: 2 }}>
          <Avatar
            src={data.profilePictureUrl ?? undefined}
            alt={data.profileName ?? 'WhatsApp'}
            sx={{ width: 56, height: 56 }}
          />
          <Box sx={{ flex: 1 }}>
            <Typography variant="subtitle1">{data.profileName ?? data.instanceName}</Typography>
            <Typography color="text.secondary">
              {data.phone ? `+${data.phone}` : 'Nenhum número conectado'}
            </Typography>
          </Box>
          <Chip
            color={STATE_COLORS[data.state as keyof typeof STATE_COLORS] ?? 'default'}
            label={data.created ? (INSTANCE_STATE_LABELS[data.state] ?? data.state) : 'Não criada'}
            data-testid="whatsapp-state"
          />
        </Stack>
        {!canWrite && <Alert severity="info">Você pode ver a conexão, mas não alterá-la.</Alert>}

        {canWrite && !data.created && (
          <Stack sx={{ gap: 2 }}>
            <Typography>Crie a instância da loja para conectar o WhatsApp e enviar campanhas.</Typography>
            <Box>
              <Button variant="contained" disabled={call.isPending} onClick={call.create}>
                Criar instância
              </Button>
            </Box>
          </Stack>
        )}

        {canWrite && data.created && data.state === 'refused' && (
          <Stack sx={{ gap: 2 }}>
            <Alert severity="error">{WHATSAPP_MESSAGES.refused}</Alert>
            <Box>
              <Button variant="contained" disabled={call.isPending} onClick={() => call.connect()}>
                Gerar novo código
              </Button>
            </Box>
          </Stack>
        )}

        {canWrite && connecting && (
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 3 }}>
            <Box sx={{ textAlign: 'center' }}>
              {qr?.base64 ? (
                <Box
                  component="img"
                  src={qr.base64}
                  alt="QR code do WhatsApp"
                  sx={{ width: 240, height: 240, imageRendering: 'pixelated', bgcolor: 'common.white', p: 1 }}
                />
              ) : (
                <Loading text="Gerando QR code..." />
              )}
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                O código é renovado automaticamente.
              </Typography>
            </Box>
            <Stack sx={{ gap: 2, flex: 1 }}>
              <Typography>
                No celular, abra o WhatsApp, toque em Dispositivos conectados e leia o QR code.
              </Typography>
              <Typography variant="subtitle2">Ou conecte com um código de pareamento:</Typography>
              <PairingForm busy={call.isPending} pair={call.pair} onDone={show} />
              {qr?.pairingCode && (
                <Alert severity="info">
                  Código de pareamento: <strong data-testid="pairing-code">{qr.pairingCode}</strong>
                </Alert>
              )}
            </Stack>
          </Stack>
        )}

        {canWrite && data.created && data.state === 'open' && <TestMessage onDone={show} />}

        {canWrite && data.created && (
          <Stack direction="row" sx={{ gap: 1, mt: 3, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
            {data.state === 'open' && (
              <Button disabled={call.isPending} onClick={call.logout}>
                Desconectar
              </Button>
            )}
            <Button color="error" disabled={call.isPending} onClick={() => setConfirmDelete(true)}>
              Excluir instância
            </Button>
          </Stack>
        )}
        {canWrite && (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mt: 3 }}
            data-testid="whatsapp-server-needs"
          >
            O servidor do WhatsApp (Evolution API 2.3) precisa guardar as mensagens enviadas
            (DATABASE_SAVE_DATA_NEW_MESSAGE=true; desligado quando ausente): é assim que o Balcão confere,
            depois de uma queda, se uma mensagem de campanha já foi. Sem isso, uma mensagem sem confirmação
            nunca é reenviada: fica com falha para alguém conferir a conversa. A mensagem de teste mostra se o
            servidor guarda.
          </Typography>
        )}
      </Paper>
      <ConfirmDialog
        open={confirmDelete}
        title="Excluir a instância do WhatsApp?"
        message="O número será desconectado e as campanhas em envio serão pausadas."
        confirmLabel="Excluir"
        destructive
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          setQr(null);
          call.remove();
        }}
      />
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}

/** A pairing code for a number instead of the QR code. */
function PairingForm({
  busy,
  pair,
  onDone,
}: {
  busy: boolean;
  pair: (number: string) => Promise<void>;
  onDone: (f: Feedback) => void;
}) {
  const form = useAppForm({ schema: whatsappConnectInputSchema, defaultValues: { number: '' } });
  const number = useWatch({ control: form.control, name: 'number' });
  return (
    <Form
      form={form}
      aria-label="Código de pareamento"
      onSubmit={(values) => pair(values.number ?? '')}
      onError={(message) => onDone({ severity: 'error', title: 'Não foi possível concluir', message })}
    >
      <Stack sx={{ gap: 2 }}>
        <FormError />
        <FormTextField
          control={form.control}
          name="number"
          label="Número do WhatsApp (com DDD)"
          size="small"
          inputMode="tel"
        />
        <Box>
          <SubmitButton
            variant="outlined"
            busyLabel="Gerar código de pareamento"
            disabled={busy || !whatsappDigits(number)}
          >
            Gerar código de pareamento
          </SubmitButton>
        </Box>
      </Stack>
    </Form>
  );
}

/** A test message to a number, once the instance is connected. */
function TestMessage({ onDone }: { onDone: (f: Feedback) => void }) {
  const send = useSendTest();
  const form = useAppForm({
    schema: whatsappTestInputSchema,
    defaultValues: { number: '', text: 'Mensagem de teste do Balcão' },
  });
  const [number, text] = useWatch({ control: form.control, name: ['number', 'text'] });
  /** Whether Evolution stored the last test message (null: not asked yet, or it could not say). */
  const [stored, setStored] = useState<boolean | null>(null);
  return (
    <Stack sx={{ gap: 2, mt: 2 }} component="section" aria-label="Mensagem de teste">
      <Typography variant="subtitle1">Mensagem de teste</Typography>
      {stored === false && (
        <Alert severity="warning" data-testid="whatsapp-not-stored">
          {WHATSAPP_MESSAGES.notStored}
        </Alert>
      )}
      <Form
        form={form}
        aria-label="Enviar mensagem de teste"
        onSubmit={async (body) => {
          const sent = await send.mutateAsync({ body });
          setStored(sent.stored);
          onDone({ severity: 'success', title: 'Mensagem de teste enviada' });
        }}
        onError={(message) => onDone({ severity: 'error', title: 'Não foi possível enviar', message })}
      >
        <FormError />
        <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2 }}>
          <FormTextField
            control={form.control}
            name="number"
            label="Número (com DDD)"
            size="small"
            fullWidth={false}
          />
          <FormTextField
            control={form.control}
            name="text"
            label="Mensagem"
            size="small"
            fullWidth={false}
            sx={{ flex: 1 }}
          />
          <SubmitButton
            variant="outlined"
            busyLabel="Enviar teste"
            disabled={!whatsappDigits(number) || !text.trim()}
          >
            Enviar teste
          </SubmitButton>
        </Stack>
      </Form>
    </Stack>
  );
}
