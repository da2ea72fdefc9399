import { maskCep } from '@balcao/core/cep';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { can, WRITE } from '@balcao/core/routes';
import {
  CHECKLIST_FLAG_HELP,
  type CompanySettings,
  type CompanySettingsData,
  companySettingsInputSchema,
} from '@balcao/core/settings';
import { CLIENT_TYPE_IDS, CLIENT_TYPES } from '@balcao/core/userTypes';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { FormTextField, useAppForm } from '../../../components/form.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../auth/index.ts';
import { AddressInputs } from '../../customer/index.ts';
import { useCompanySettings, useLogo, useSaveCompany } from '../api.ts';
import { SettingsForm, SettingsQuery, SettingsSection, useSyncedVersion } from '../SettingsLayout.tsx';

type Values = {
  name: string;
  legalName: string;
  document: string;
  stateRegistration: string;
  clientTypeId: string;
  phone: string;
  whatsapp: string;
  email: string;
  address: {
    zipCode: string;
    street: string;
    number: string;
    complement: string;
    neighborhood: string;
    city: string;
    state: string;
  };
  pixKey: string;
  pixMerchantName: string;
  pixMerchantCity: string;
  receiptHeader: string;
  receiptFooter: string;
  saleCommand: boolean;
  stockManagement: boolean;
  checkIsOpen: boolean;
};

function toValues(c: CompanySettings): Values {
  const a = c.address;
  return {
    name: c.name,
    legalName: c.legalName ?? '',
    document: maskDocument(c.document),
    stateRegistration: c.stateRegistration ?? '',
    clientTypeId: String(c.clientTypeId),
    phone: maskPhone(c.phone),
    whatsapp: c.whatsapp ? maskPhone(c.whatsapp) : '',
    email: c.email ?? '',
    address: {
      zipCode: a.zipCode ? maskCep(a.zipCode) : '',
      street: a.street ?? '',
      number: a.number ?? '',
      complement: a.complement ?? '',
      neighborhood: a.neighborhood ?? '',
      city: a.city ?? '',
      state: a.state ?? '',
    },
    pixKey: c.pixKey ?? '',
    pixMerchantName: c.pixMerchantName ?? '',
    pixMerchantCity: c.pixMerchantCity ?? '',
    receiptHeader: c.receiptHeader ?? '',
    receiptFooter: c.receiptFooter ?? '',
    saleCommand: c.saleCommand,
    stockManagement: c.stockManagement,
    checkIsOpen: c.checkIsOpen,
  };
}

/** Dados da empresa (/dashboard/settings/system-client). */
export default function CompanyPage() {
  const query = useCompanySettings();
  return <SettingsQuery query={query}>{(company) => <CompanyForm company={company} />}</SettingsQuery>;
}

function CompanyForm({ company }: { company: CompanySettings }) {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.settings);
  const save = useSaveCompany();
  const form = useAppForm<Values, CompanySettingsData>({
    schema: companySettingsInputSchema,
    defaultValues: toValues(company),
  });
  const { control } = form;
  const { version, saved } = useSyncedVersion(form, company, toValues);

  return (
    <SettingsForm
      title="Dados da empresa"
      label="Dados da empresa"
      form={form}
      changedBy={company}
      canWrite={canWrite}
      readOnlyNote="Você pode ver os dados da empresa, mas só Administrador e Gerente podem alterá-los."
      onSubmit={async (values) => saved(await save.mutateAsync({ body: { ...values, updatedAt: version } }))}
    >
      <SettingsSection title="Empresa">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormTextField control={control} name="name" label="Nome fantasia" required />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormTextField control={control} name="legalName" label="Razão social" />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 4 }}>
            <FormTextField
              control={control}
              name="document"
              label="CNPJ ou CPF"
              required
              mask={maskDocument}
              helperText="Aceita o CNPJ alfanumérico"
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 4 }}>
            <FormTextField control={control} name="stateRegistration" label="Inscrição estadual" />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <FormTextField control={control} name="clientTypeId" label="Segmento" select required>
              {CLIENT_TYPE_IDS.map((id) => (
                <MenuItem key={id} value={String(id)}>
                  {CLIENT_TYPES[id]}
                </MenuItem>
              ))}
            </FormTextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 4 }}>
            <FormTextField control={control} name="phone" label="Telefone" required mask={maskPhone} />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 4 }}>
            <FormTextField control={control} name="whatsapp" label="WhatsApp" mask={maskPhone} />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <FormTextField control={control} name="email" label="Email" type="email" />
          </Grid>
        </Grid>
      </SettingsSection>

      <SettingsSection title="Endereço">
        <AddressInputs
          control={form.control}
          setValue={form.setValue}
          getValues={form.getValues}
          prefix="address."
          initialZip={form.getValues('address.zipCode')}
          optional
        />
      </SettingsSection>

      <SettingsSection title="Logotipo">
        <LogoField company={company} canWrite={canWrite} />
      </SettingsSection>

      <SettingsSection title="Pix (QR estático do PDV)">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 5 }}>
            <FormTextField
              control={control}
              name="pixKey"
              label="Chave Pix"
              helperText="Email, CPF/CNPJ, telefone (+55...) ou chave aleatória"
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 7, md: 4 }}>
            <FormTextField
              control={control}
              name="pixMerchantName"
              label="Nome do recebedor"
              slotProps={{ htmlInput: { maxLength: 25 } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 5, md: 3 }}>
            <FormTextField
              control={control}
              name="pixMerchantCity"
              label="Cidade do recebedor"
              slotProps={{ htmlInput: { maxLength: 15 } }}
            />
          </Grid>
        </Grid>
      </SettingsSection>

      <SettingsSection title="Comprovante">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormTextField
              control={control}
              name="receiptHeader"
              label="Cabeçalho do comprovante"
              multiline
              minRows={2}
              helperText="Impresso abaixo dos dados da empresa"
            />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormTextField
              control={control}
              name="receiptFooter"
              label="Rodapé do comprovante"
              multiline
              minRows={2}
              helperText="Impresso no fim (padrão: Obrigado pela preferência!)"
            />
          </Grid>
        </Grid>
      </SettingsSection>

      <SettingsSection title="Recursos">
        <Stack sx={{ gap: 1.5 }}>
          {(['saleCommand', 'stockManagement', 'checkIsOpen'] as const).map((flag) => (
            <Controller
              key={flag}
              control={control}
              name={flag}
              render={({ field }) => (
                <Box>
                  <FormControlLabel
                    control={
                      <Switch
                        checked={Boolean(field.value)}
                        onChange={(e) => field.onChange(e.target.checked)}
                        slotProps={{ input: { 'aria-describedby': `${flag}-help` } }}
                      />
                    }
                    label={FLAG_LABELS[flag]}
                  />
                  <Typography id={`${flag}-help`} variant="body2" color="text.secondary" sx={{ ml: 6 }}>
                    {CHECKLIST_FLAG_HELP[flag]}
                  </Typography>
                </Box>
              )}
            />
          ))}
        </Stack>
      </SettingsSection>
    </SettingsForm>
  );
}

const FLAG_LABELS = {
  saleCommand: 'Comandas',
  stockManagement: 'Controle de estoque',
  checkIsOpen: 'Horário de funcionamento',
} as const;

/** The logo: a preview, "Enviar logotipo" (JPEG, PNG or WebP up to 2 MB) and "Remover". */
function LogoField({ company, canWrite }: { company: CompanySettings; canWrite: boolean }) {
  const upload = useLogo();
  const input = useRef<HTMLInputElement | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = async (file: File | null) => {
    setError(null);
    try {
      await upload.send(file);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, alignItems: { sm: 'center' } }}>
      <Box
        sx={{
          width: 160,
          height: 80,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          bgcolor: '#fff',
        }}
      >
        {company.logoUrl ? (
          <Box
            component="img"
            src={company.logoUrl}
            alt="Logotipo da empresa"
            data-testid="company-logo"
            sx={{ maxWidth: 150, maxHeight: 70, objectFit: 'contain' }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            Sem logotipo
          </Typography>
        )}
      </Box>
      <Stack sx={{ gap: 1 }}>
        <Typography variant="body2" color="text.secondary">
          Aparece no topo do sistema, nos comprovantes e nos orçamentos. JPEG, PNG ou WebP até 2 MB.
        </Typography>
        {canWrite && (
          <Stack direction="row" sx={{ gap: 1 }}>
            <Button variant="outlined" disabled={upload.isPending} onClick={() => input.current?.click()}>
              {upload.isPending ? 'Enviando...' : 'Enviar logotipo'}
            </Button>
            {company.logoUrl && (
              <Button color="error" disabled={upload.isPending} onClick={() => void send(null)}>
                Remover
              </Button>
            )}
            <input
              ref={input}
              type="file"
              hidden
              accept="image/jpeg,image/png,image/webp"
              aria-label="Arquivo do logotipo"
              onChange={(e) => {
                const file = e.target.files?.[0] ?? null;
                e.target.value = '';
                if (file) void send(file);
              }}
            />
          </Stack>
        )}
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
    </Stack>
  );
}
