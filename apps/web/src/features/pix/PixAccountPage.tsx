import {
  PIX_CHARGE_MESSAGES,
  PIX_ENVIRONMENT_LABELS,
  type PixAccount,
  type PixEnvironment,
  type PixTestResult,
  pixAccountInputSchema,
} from '@balcao/core/pixCharge';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { usePixAccount, useSavePixAccount, useTestPixAccount } from './api.ts';

type Certificate =
  | { format: 'pfx'; pfxBase64: string; passphrase: string }
  | { format: 'pem'; certPem: string; keyPem: string }
  | null;

type Values = {
  provider: string;
  environment: PixEnvironment;
  clientId: string;
  clientSecret: string;
  appKey: string;
  pixKey: string;
  expiresInMinutes: string;
  passphrase: string;
  certificate: Certificate;
  certificateName: string;
};

const toValues = (a: PixAccount): Values => ({
  provider: a.provider,
  environment: a.environment,
  clientId: '',
  clientSecret: '',
  appKey: '',
  pixKey: a.pixKey,
  expiresInMinutes: String(Math.round(a.expiresInSeconds / 60)),
  passphrase: '',
  certificate: null,
  certificateName: '',
});

const toInput = (v: Values) => ({
  provider: v.provider,
  environment: v.environment,
  clientId: v.clientId,
  clientSecret: v.clientSecret,
  appKey: v.appKey,
  pixKey: v.pixKey,
  expiresInSeconds: Math.round(Number(v.expiresInMinutes.replace(',', '.')) * 60),
  certificate:
    v.certificate?.format === 'pfx' ? { ...v.certificate, passphrase: v.passphrase } : v.certificate,
});

/** Reads the chosen files: a .pfx/.p12 (base64) or PEM text holding the certificate and the key. */
async function readCertificate(files: FileList): Promise<Certificate> {
  const list = Array.from(files);
  const pfx = list.find((f) => /\.(pfx|p12)$/i.test(f.name));
  if (pfx) {
    const bytes = new Uint8Array(await pfx.arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return { format: 'pfx', pfxBase64: btoa(binary), passphrase: '' };
  }
  const text = (await Promise.all(list.map((f) => f.text()))).join('\n');
  const cert = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  const key = text.match(
    /-----BEGIN (RSA |EC |ENCRYPTED )?PRIVATE KEY-----[\s\S]+?-----END (RSA |EC |ENCRYPTED )?PRIVATE KEY-----/,
  );
  if (!cert || !key) return null;
  return { format: 'pem', certPem: cert.join('\n'), keyPem: key[0] };
}

/**
 * Configurações > Conta Pix (issue 33, Administrador): the PSP account of Pix confirmed by the bank.
 * The secrets and the certificate are sent, never shown back; "Testar conexão" gets a token and
 * registers the webhook, saying in Portuguese what failed.
 */
export default function PixAccountPage() {
  const account = usePixAccount();
  if (account.isPending) return <Loading />;
  if (account.isError)
    return (
      <LoadError
        what="Não foi possível carregar a conta Pix."
        error={account.error}
        onRetry={() => account.refetch()}
      />
    );
  return <AccountForm account={account.data} />;
}

function AccountForm({ account }: { account: PixAccount }) {
  const save = useSavePixAccount();
  const test = useTestPixAccount();
  const feedback = useFeedback();
  const [result, setResult] = useState<PixTestResult | null>(null);
  const [certificateError, setCertificateError] = useState<string | null>(null);
  const form = useAppForm({
    schema: pixAccountInputSchema,
    defaultValues: toValues(account),
    toInput,
    fieldOf: { expiresInSeconds: 'expiresInMinutes', certificate: 'certificateName' },
    check: (v) =>
      !account.hasCertificate && !v.certificate
        ? [{ path: 'certificateName', message: PIX_CHARGE_MESSAGES.certificate }]
        : [],
  });
  const certificate = form.watch('certificate');
  const certificateName = form.watch('certificateName');
  const provider = account.providers.find((p) => p.id === form.watch('provider'));

  const submit = async (body: ReturnType<typeof pixAccountInputSchema.parse>) => {
    await save.mutateAsync({ body });
    form.reset({
      ...form.getValues(),
      clientId: '',
      clientSecret: '',
      appKey: '',
      passphrase: '',
      certificate: null,
      certificateName: '',
    });
    feedback.show({ severity: 'success', title: 'Conta Pix salva' });
  };

  const runTest = () =>
    test.mutate(
      {},
      {
        onSuccess: (r) => setResult(r),
        onError: (error) =>
          setResult({ ok: false, steps: [{ step: 'Conexão', ok: false, message: errorMessage(error) }] }),
      },
    );

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Conta Pix
      </Typography>
      <Typography color="text.secondary">
        Pix QR dinâmico: cada venda gera uma cobrança no seu banco (API Pix do Banco Central) e o PDV mostra
        "Pago" sozinho quando o banco confirma.
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Chip
          label={account.configured ? 'Credenciais guardadas' : 'Não configurada'}
          color={account.configured ? 'success' : 'default'}
        />
        {account.webhookRegisteredAt && (
          <Chip
            label={`Webhook cadastrado em ${formatDateTime(account.webhookRegisteredAt)}`}
            color="success"
          />
        )}
      </Stack>
      {account.lastTestError && !result && (
        <Alert severity="warning">Último teste: {account.lastTestError}</Alert>
      )}
      <Form form={form} onSubmit={submit} aria-label="Conta Pix">
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={2}>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
              <FormTextField
                control={form.control}
                name="provider"
                label="Banco (PSP)"
                select
                helperText="Os endereços da API do banco vêm do servidor do Balcão"
              >
                {account.providers.map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {p.label}
                  </MenuItem>
                ))}
              </FormTextField>
              <FormTextField control={form.control} name="environment" label="Ambiente" select>
                {(provider?.environments ?? (['production', 'sandbox'] as const)).map((e) => (
                  <MenuItem key={e} value={e}>
                    {PIX_ENVIRONMENT_LABELS[e]}
                  </MenuItem>
                ))}
              </FormTextField>
              <FormTextField
                control={form.control}
                name="clientId"
                label="Client ID"
                autoComplete="off"
                helperText={
                  account.clientIdHint ? `Guardado (…${account.clientIdHint}); vazio mantém o atual` : ' '
                }
              />
              {provider?.needsSecret !== false && (
                <FormTextField
                  control={form.control}
                  name="clientSecret"
                  label="Client Secret"
                  type="password"
                  autoComplete="off"
                  helperText={account.hasSecret ? 'Guardado; vazio mantém o atual' : ' '}
                />
              )}
              {provider?.needsAppKey && (
                <FormTextField
                  control={form.control}
                  name="appKey"
                  label="Chave do aplicativo (gw-dev-app-key)"
                  autoComplete="off"
                  helperText={account.hasAppKey ? 'Guardada; vazio mantém a atual' : ' '}
                />
              )}
              <FormTextField control={form.control} name="pixKey" label="Chave Pix da conta" />
              <FormTextField
                control={form.control}
                name="expiresInMinutes"
                label="Validade da cobrança (minutos)"
                inputMode="numeric"
              />
            </Box>
            <Stack spacing={1}>
              <Typography variant="subtitle2">Certificado do banco</Typography>
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                spacing={2}
                sx={{ alignItems: { sm: 'center' } }}
              >
                <Button variant="outlined" component="label">
                  Escolher certificado (.pfx ou .pem)
                  <input
                    hidden
                    type="file"
                    multiple
                    accept=".pfx,.p12,.pem,.crt,.key"
                    data-testid="pix-certificate"
                    onChange={async (event) => {
                      const files = event.target.files;
                      if (!files?.length) return;
                      const read = await readCertificate(files);
                      setCertificateError(read ? null : PIX_CHARGE_MESSAGES.pem);
                      form.setValue('certificate', read);
                      form.setValue(
                        'certificateName',
                        read
                          ? Array.from(files)
                              .map((f) => f.name)
                              .join(', ')
                          : '',
                        { shouldValidate: form.formState.isSubmitted },
                      );
                    }}
                  />
                </Button>
                <Typography variant="body2" color="text.secondary">
                  {certificateName ||
                    (account.hasCertificate
                      ? 'Certificado guardado; escolha outro para trocar'
                      : 'Nenhum certificado')}
                </Typography>
              </Stack>
              {(certificateError || form.formState.errors.certificateName) && (
                <Alert severity="error">
                  {certificateError ?? form.formState.errors.certificateName?.message}
                </Alert>
              )}
              {certificate?.format === 'pfx' && (
                <FormTextField
                  control={form.control}
                  name="passphrase"
                  label="Senha do .pfx"
                  type="password"
                  autoComplete="off"
                />
              )}
            </Stack>
            <FormError />
            <Stack direction="row" spacing={1}>
              <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
              <Button variant="outlined" onClick={runTest} disabled={!account.configured || test.isPending}>
                {test.isPending ? 'Testando...' : 'Testar conexão'}
              </Button>
            </Stack>
          </Stack>
        </Paper>
      </Form>
      {result && (
        <Alert severity={result.ok ? 'success' : 'error'} data-testid="pix-test-result">
          {result.steps.map((s) => (
            <div key={s.step}>
              {s.step}: {s.message}
            </div>
          ))}
        </Alert>
      )}
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}
