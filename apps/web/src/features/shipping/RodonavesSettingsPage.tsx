import { maskCep } from '@balcao/core/cep';
import { maskDocument } from '@balcao/core/document';
import { can, WRITE } from '@balcao/core/routes';
import {
  RODONAVES_CITY_URL,
  RODONAVES_QUOTE_URL,
  type RodonavesSettings,
  rodonavesSettingsInputSchema,
} from '@balcao/core/shipping';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type Feedback, FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useSession } from '../auth/index.ts';
import { useRodonavesSettings, useSaveRodonaves } from './api.ts';
import {
  carrierFieldOf,
  FallbackRows,
  type FallbackText,
  fallbackFromText,
  fallbackToText,
  PackageFields,
  type PackageText,
  packageFromText,
  packageToText,
  Section,
  SwitchField,
  twoColumns,
} from './carrierForm.tsx';

type Values = {
  enabled: boolean;
  cityBaseUrl: string;
  quoteBaseUrl: string;
  username: string;
  password: string;
  authType: 'dev' | 'prod';
  taxpayerId: string;
  originZipCode: string;
  defaultPackage: PackageText;
  fallback: FallbackText[];
};

const toValues = (s: RodonavesSettings): Values => ({
  enabled: s.enabled || !s.updatedAt,
  cityBaseUrl: s.cityBaseUrl,
  quoteBaseUrl: s.quoteBaseUrl,
  username: s.username,
  password: '',
  authType: s.authType,
  taxpayerId: s.taxpayerId ? maskDocument(s.taxpayerId) : '',
  originZipCode: maskCep(s.originZipCode),
  defaultPackage: packageToText(s.defaultPackage),
  fallback: fallbackToText(s.fallback),
});

const toInput = (v: Values) => ({
  enabled: v.enabled,
  cityBaseUrl: v.cityBaseUrl.trim(),
  quoteBaseUrl: v.quoteBaseUrl.trim(),
  username: v.username,
  password: v.password || undefined,
  authType: v.authType,
  taxpayerId: v.taxpayerId,
  originZipCode: v.originZipCode,
  defaultPackage: packageFromText(v.defaultPackage),
  fallback: fallbackFromText(v.fallback),
});

/** Rodonaves: credentials, the two hosts (each with its own token), the shop's CNPJ, box and estimate table. */
export default function RodonavesSettingsPage() {
  const settings = useRodonavesSettings();
  const { state, show, close } = useFeedback();
  return (
    <Box sx={{ maxWidth: 900 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        Rodonaves
      </Typography>
      {settings.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <LoadError
          what="Não foi possível carregar as configurações."
          error={settings.error}
          onRetry={() => settings.refetch()}
        />
      ) : (
        <SettingsForm key={settings.data.updatedAt ?? 'new'} settings={settings.data} onFeedback={show} />
      )}
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}

function SettingsForm({
  settings,
  onFeedback,
}: {
  settings: RodonavesSettings;
  onFeedback: (f: Feedback) => void;
}) {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.settings);
  const save = useSaveRodonaves();
  const form = useAppForm({
    schema: rodonavesSettingsInputSchema,
    defaultValues: toValues(settings),
    toInput,
    fieldOf: carrierFieldOf,
  });
  const { control } = form;
  const locked = !canWrite;
  const submit = async () => {
    const saved = await save.mutateAsync({
      body: { ...toInput(form.getValues()), updatedAt: settings.updatedAt ?? undefined },
    });
    form.reset(toValues(saved));
    onFeedback({ severity: 'success', title: 'Configurações da Rodonaves salvas' });
  };
  return (
    <Form
      form={form}
      onSubmit={submit}
      onError={(message) => onFeedback({ severity: 'error', title: 'Erro ao salvar', message })}
      aria-label="Configurações da Rodonaves"
    >
      <Stack spacing={2}>
        {locked && <Alert severity="info">Você pode ver estas configurações, mas não alterá-las.</Alert>}
        <Section title="Acesso">
          <Box>
            <Chip
              label={settings.hasPassword ? 'Credenciais guardadas' : 'Não configurada'}
              color={settings.hasPassword ? 'success' : 'default'}
            />
          </Box>
          <SwitchField control={control} name="enabled" label="Cotar com a Rodonaves" disabled={locked} />
          <Box sx={twoColumns}>
            <FormTextField
              control={control}
              name="username"
              label="Usuário"
              autoComplete="off"
              disabled={locked}
            />
            <FormTextField
              control={control}
              name="password"
              label="Senha"
              helperText={settings.hasPassword ? 'Guardada; vazio mantém a atual' : undefined}
              type="password"
              autoComplete="off"
              disabled={locked}
            />
            <FormTextField
              control={control}
              name="authType"
              label="Ambiente (auth_type)"
              select
              disabled={locked}
            >
              <MenuItem value="prod">Produção (prod)</MenuItem>
              <MenuItem value="dev">Desenvolvimento (dev)</MenuItem>
            </FormTextField>
            <FormTextField
              control={control}
              name="taxpayerId"
              label="CNPJ da loja (pagador do frete)"
              mask={maskDocument}
              disabled={locked}
            />
          </Box>
          <Box sx={twoColumns}>
            <FormTextField
              control={control}
              name="cityBaseUrl"
              label="Servidor de cidades e prazos"
              placeholder={RODONAVES_CITY_URL}
              helperText={`Vazio: ${RODONAVES_CITY_URL}`}
              disabled={locked}
            />
            <FormTextField
              control={control}
              name="quoteBaseUrl"
              label="Servidor de cotação"
              placeholder={RODONAVES_QUOTE_URL}
              helperText={`Vazio: ${RODONAVES_QUOTE_URL}`}
              disabled={locked}
            />
          </Box>
        </Section>
        <Section title="Origem e pacote padrão">
          <FormTextField
            control={control}
            name="originZipCode"
            label="CEP de origem"
            mask={maskCep}
            disabled={locked}
          />
          <PackageFields control={control} disabled={locked} />
        </Section>
        <Section
          title="Tabela de estimativa"
          hint="Quando a Rodonaves não responde, o simulador mostra este valor como estimativa."
        >
          <FallbackRows control={control} disabled={locked} />
        </Section>
        <FormError />
        {canWrite && (
          <Box>
            <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
          </Box>
        )}
      </Stack>
    </Form>
  );
}
