import { maskCep } from '@balcao/core/cep';
import { maskDocument } from '@balcao/core/document';
import { type RodonavesSettings, rodonavesSettingsInputSchema } from '@balcao/core/shipping';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import { type Feedback, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { FormSwitch, FormTextField } from '../../components/form.tsx';
import { useRodonavesSettings, useSaveRodonaves } from './api.ts';
import {
  CarrierForm,
  CarrierSettingsPage,
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

type Values = {
  enabled: boolean;
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
  username: v.username,
  password: v.password || undefined,
  authType: v.authType,
  taxpayerId: v.taxpayerId,
  originZipCode: v.originZipCode,
  defaultPackage: packageFromText(v.defaultPackage),
  fallback: fallbackFromText(v.fallback),
});

/** Rodonaves: credentials, the shop's CNPJ, box and estimate table (the hosts are the server's). */
export default function RodonavesSettingsPage() {
  const feedback = useFeedback();
  return (
    <CarrierSettingsPage
      title="Rodonaves"
      settings={useRodonavesSettings()}
      feedback={feedback}
      form={(settings) => <SettingsForm settings={settings} onFeedback={feedback.show} />}
    />
  );
}

function SettingsForm({
  settings,
  onFeedback,
}: {
  settings: RodonavesSettings;
  onFeedback: (f: Feedback) => void;
}) {
  const save = useSaveRodonaves();
  const { form, control, locked, submit } = useCarrierForm({
    settings,
    schema: rodonavesSettingsInputSchema,
    toValues,
    toInput,
    save: (body) => save.mutateAsync({ body }),
    savedTitle: 'Configurações da Rodonaves salvas',
    onFeedback,
  });
  return (
    <CarrierForm
      form={form}
      onSubmit={submit}
      label="Configurações da Rodonaves"
      locked={locked}
      onFeedback={onFeedback}
    >
      <Section title="Acesso">
        <Box>
          <Chip
            label={settings.hasPassword ? 'Credenciais guardadas' : 'Não configurada'}
            color={settings.hasPassword ? 'success' : 'default'}
          />
        </Box>
        <FormSwitch control={control} name="enabled" label="Cotar com a Rodonaves" disabled={locked} />
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
      </Section>
      <OriginSection control={control} disabled={locked} />
      <FallbackSection control={control} disabled={locked} carrier="a Rodonaves" />
    </CarrierForm>
  );
}
