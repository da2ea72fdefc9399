import { maskCep } from '@balcao/core/cep';
import {
  MELHOR_ENVIO_SERVICES,
  type MelhorEnvioSettings,
  melhorEnvioSettingsInputSchema,
} from '@balcao/core/shipping';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { type Feedback, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { FormSwitch, FormTextField } from '../../components/form.tsx';
import { errorMessage } from '../../lib/api.ts';
import {
  useAuthorizeMelhorEnvio,
  useFinishMelhorEnvio,
  useMelhorEnvioSettings,
  useSaveMelhorEnvio,
} from './api.ts';
import {
  CarrierForm,
  CarrierSettingsPage,
  expiresText,
  FallbackSection,
  type FallbackText,
  fallbackFromText,
  fallbackToText,
  OriginSection,
  type PackageText,
  packageFromText,
  packageToText,
  Section,
  twoColumns,
  useCarrierForm,
} from './carrierForm.tsx';

const PAGE = '/dashboard/settings/melhor-envio/settings';

type Values = {
  enabled: boolean;
  sandbox: boolean;
  originZipCode: string;
  token: string;
  clientId: string;
  clientSecret: string;
  userAgent: string;
  defaultPackage: PackageText;
  services: number[];
  fallback: FallbackText[];
};

function toValues(s: MelhorEnvioSettings): Values {
  return {
    enabled: s.enabled || !s.updatedAt,
    sandbox: s.sandbox,
    originZipCode: maskCep(s.originZipCode),
    token: '',
    clientId: s.clientId,
    clientSecret: '',
    userAgent: s.userAgent,
    defaultPackage: packageToText(s.defaultPackage),
    services: s.services,
    fallback: fallbackToText(s.fallback),
  };
}

/** Secrets typed are sent; an empty secret input keeps the stored one (absent). */
const toInput = (v: Values) => ({
  enabled: v.enabled,
  sandbox: v.sandbox,
  originZipCode: v.originZipCode,
  token: v.token.trim() || undefined,
  clientId: v.clientId,
  clientSecret: v.clientSecret.trim() || undefined,
  userAgent: v.userAgent,
  defaultPackage: packageFromText(v.defaultPackage),
  services: v.services,
  fallback: fallbackFromText(v.fallback),
});

/** Melhor Envio: connect (OAuth2 or a pasted token), environment, origin, box, services, estimate table. */
export default function MelhorEnvioSettingsPage() {
  const feedback = useFeedback();
  useOAuthReturn(feedback.show);
  return (
    <CarrierSettingsPage
      title="Melhor Envio"
      settings={useMelhorEnvioSettings()}
      feedback={feedback}
      form={(settings) => <SettingsForm settings={settings} onFeedback={feedback.show} />}
    />
  );
}

/** Back from Melhor Envio with ?code=&state=: trades the code once, then clears the address bar. */
function useOAuthReturn(show: (f: Feedback) => void) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { mutateAsync: finishOAuth } = useFinishMelhorEnvio();
  const done = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  const denied = params.get('error');
  useEffect(() => {
    if (done.current || (!code && !denied)) return;
    done.current = true;
    navigate(PAGE, { replace: true });
    if (denied || !code || !state) {
      show({ severity: 'error', title: 'A conexão com o Melhor Envio não foi autorizada' });
      return;
    }
    finishOAuth({ body: { code, state } })
      .then(() => {
        show({ severity: 'success', title: 'Melhor Envio conectado' });
      })
      .catch((error) =>
        show({ severity: 'error', title: 'Erro ao conectar o Melhor Envio', message: errorMessage(error) }),
      );
  }, [code, state, denied, navigate, finishOAuth, show]);
}

function SettingsForm({
  settings,
  onFeedback,
}: {
  settings: MelhorEnvioSettings;
  onFeedback: (f: Feedback) => void;
}) {
  const save = useSaveMelhorEnvio();
  const authorize = useAuthorizeMelhorEnvio();
  const [connecting, setConnecting] = useState(false);
  const { form, control, locked, submit } = useCarrierForm({
    settings,
    schema: melhorEnvioSettingsInputSchema,
    toValues,
    toInput,
    save: (body) => save.mutateAsync({ body }),
    savedTitle: 'Configurações do Melhor Envio salvas',
    onFeedback,
  });
  const canWrite = !locked;
  const removeToken = async () => {
    const saved = await save.mutateAsync({
      body: { ...toInput(toValues(settings)), token: '', updatedAt: settings.updatedAt ?? undefined },
    });
    form.reset(toValues(saved));
    onFeedback({ severity: 'success', title: 'Token removido' });
  };
  const connect = async () => {
    setConnecting(true);
    try {
      const { url } = await authorize.mutateAsync({
        body: { redirectUri: `${window.location.origin}${PAGE}` },
      });
      window.location.assign(url);
    } catch (error) {
      setConnecting(false);
      onFeedback({
        severity: 'error',
        title: 'Erro ao conectar o Melhor Envio',
        message: errorMessage(error),
      });
    }
  };

  const status =
    settings.connection === 'oauth'
      ? `Conectado pelo Melhor Envio (OAuth), ${expiresText(settings.tokenExpiresAt)}`
      : settings.connection === 'token'
        ? 'Conectado com token colado do painel'
        : 'Não conectado';

  return (
    <CarrierForm
      form={form}
      onSubmit={submit}
      label="Configurações do Melhor Envio"
      locked={locked}
      onFeedback={onFeedback}
    >
      <Section title="Conexão">
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <Chip
            label={status}
            color={settings.connection === 'none' ? 'default' : 'success'}
            data-testid="melhor-envio-status"
            sx={{ height: 'auto', py: 0.5, '& .MuiChip-label': { whiteSpace: 'normal' } }}
          />
          {settings.hasRefreshToken && <Chip variant="outlined" label="Renovação automática do token" />}
        </Stack>
        <Box sx={twoColumns}>
          <FormSwitch control={control} name="enabled" label="Cotar com o Melhor Envio" disabled={locked} />
          <FormSwitch
            control={control}
            name="sandbox"
            label="Ambiente de testes (sandbox)"
            disabled={locked}
          />
        </Box>
        <Typography variant="body2" color="text.secondary">
          Um token só vale no ambiente que o emitiu: use o ambiente de testes apenas com um token ou
          aplicativo do sandbox do Melhor Envio.
        </Typography>
        <FormTextField
          control={control}
          name="token"
          label={
            settings.hasToken
              ? 'Novo token (deixe vazio para manter o atual)'
              : 'Token do painel Melhor Envio'
          }
          type="password"
          autoComplete="off"
          disabled={locked}
        />
        <Typography variant="body2" color="text.secondary">
          Ou conecte pelo aplicativo (OAuth2): informe o Client ID e o Client Secret do seu aplicativo no
          Melhor Envio, salve e clique em Conectar. O token é renovado antes de expirar.
        </Typography>
        <Box sx={twoColumns}>
          <FormTextField control={control} name="clientId" label="Client ID" disabled={locked} />
          <FormTextField
            control={control}
            name="clientSecret"
            label="Client Secret"
            helperText={settings.hasClientSecret ? 'Guardado; vazio mantém o atual' : undefined}
            type="password"
            autoComplete="off"
            disabled={locked}
          />
        </Box>
        <FormTextField
          control={control}
          name="userAgent"
          label="Identificação (User-Agent)"
          placeholder="Minha Loja (contato@minhaloja.com.br)"
          helperText="Nome do aplicativo e e-mail técnico, exigidos pelo Melhor Envio"
          disabled={locked}
        />
        {canWrite && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
            <Button
              variant="outlined"
              onClick={connect}
              disabled={connecting || !settings.clientId || !settings.hasClientSecret}
            >
              {connecting ? 'Abrindo o Melhor Envio...' : 'Conectar com Melhor Envio'}
            </Button>
            {settings.hasToken && (
              <Button color="error" onClick={removeToken}>
                Desconectar
              </Button>
            )}
          </Stack>
        )}
      </Section>

      <OriginSection
        control={control}
        disabled={locked}
        hint="Usados quando o simulador não informa outra origem ou caixa."
        numeric
      />

      <Section title="Serviços cotados">
        <Controller
          control={control}
          name="services"
          render={({ field }) => (
            <FormGroup row aria-label="Serviços cotados">
              {MELHOR_ENVIO_SERVICES.map((s) => (
                <FormControlLabel
                  key={s.id}
                  sx={{ minWidth: 220 }}
                  disabled={locked}
                  control={
                    <Checkbox
                      checked={field.value.includes(s.id)}
                      onChange={(e) =>
                        field.onChange(
                          e.target.checked
                            ? [...field.value, s.id]
                            : field.value.filter((id: number) => id !== s.id),
                        )
                      }
                    />
                  }
                  label={`${s.company} ${s.name}`}
                />
              ))}
            </FormGroup>
          )}
        />
      </Section>

      <FallbackSection control={control} disabled={locked} carrier="o Melhor Envio" />
    </CarrierForm>
  );
}
