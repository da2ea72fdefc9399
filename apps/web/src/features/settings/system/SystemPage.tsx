import { can, PDV, WRITE } from '@balcao/core/routes';
import {
  DELIVERY_PAYMENT_LABELS,
  DELIVERY_PAYMENT_OPTIONS,
  type SystemSettings,
  type SystemSettingsData,
  systemSettingsInputSchema,
} from '@balcao/core/settings';
import { USER_TYPES, UserType, type UserTypeId } from '@balcao/core/userTypes';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type Control, Controller } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { FormMoneyField, FormSwitch, FormTextField, useAppForm } from '../../../components/form.tsx';
import { centsOf, centsToInput } from '../../../components/MoneyField.tsx';
import { useSession } from '../../auth/index.ts';
import { BackupScheduleSection } from '../../backup/index.ts';
import { ScaleSettingsSection } from '../../scale/index.ts';
import { ShopExportCard } from '../../shop-export/index.ts';
import { useSaveSystem, useSystemSettings } from '../api.ts';
import { SettingsForm, SettingsQuery, SettingsSection, useSyncedVersion } from '../SettingsLayout.tsx';

/** Brazil's IANA zones (DST-free since 2019), with the cities people know them by. */
const TIME_ZONES: { id: string; label: string }[] = [
  { id: 'America/Sao_Paulo', label: 'Brasília, São Paulo, Sul e Sudeste (UTC−3)' },
  { id: 'America/Bahia', label: 'Bahia (UTC−3)' },
  { id: 'America/Fortaleza', label: 'Fortaleza, Nordeste (UTC−3)' },
  { id: 'America/Recife', label: 'Recife (UTC−3)' },
  { id: 'America/Maceio', label: 'Maceió, Sergipe (UTC−3)' },
  { id: 'America/Belem', label: 'Belém, Amapá (UTC−3)' },
  { id: 'America/Araguaina', label: 'Tocantins (UTC−3)' },
  { id: 'America/Santarem', label: 'Santarém (UTC−3)' },
  { id: 'America/Noronha', label: 'Fernando de Noronha (UTC−2)' },
  { id: 'America/Manaus', label: 'Manaus, Amazonas (UTC−4)' },
  { id: 'America/Cuiaba', label: 'Cuiabá, Mato Grosso (UTC−4)' },
  { id: 'America/Campo_Grande', label: 'Campo Grande, Mato Grosso do Sul (UTC−4)' },
  { id: 'America/Porto_Velho', label: 'Porto Velho, Rondônia (UTC−4)' },
  { id: 'America/Boa_Vista', label: 'Boa Vista, Roraima (UTC−4)' },
  { id: 'America/Rio_Branco', label: 'Rio Branco, Acre (UTC−5)' },
  { id: 'America/Eirunepe', label: 'Eirunepé, oeste do Amazonas (UTC−5)' },
];

type Values = {
  timeZone: string;
  allowNegativeStock: boolean;
  discountLimits: { userTypeId: number; line: string; sale: string }[];
  budgetValidityDays: string;
  serviceFeePercent: string;
  couvertCents: string;
  tabIdleMinutes: string;
  delivery: { enabled: boolean; minimumOrderCents: string; estimateMinutes: string; payment: string };
  returnWindowDays: string;
  returnUserTypeIds: number[];
  blindCountUserTypeIds: number[];
  tableOrdersDirect: boolean;
};

function toValues(s: SystemSettings): Values {
  return {
    timeZone: s.timeZone,
    allowNegativeStock: s.allowNegativeStock,
    discountLimits: s.discountLimits.map((l) => ({
      userTypeId: l.userTypeId,
      line: centsToInput(l.line),
      sale: centsToInput(l.sale),
    })),
    budgetValidityDays: String(s.budgetValidityDays),
    serviceFeePercent: centsToInput(s.serviceFeePercent),
    couvertCents: centsToInput(s.couvertCents),
    tabIdleMinutes: String(s.tabIdleMinutes),
    delivery: {
      enabled: s.delivery.enabled,
      minimumOrderCents: centsToInput(s.delivery.minimumOrderCents),
      estimateMinutes: String(s.delivery.estimateMinutes),
      payment: s.delivery.payment,
    },
    returnWindowDays: String(s.returns.windowDays),
    returnUserTypeIds: s.returns.userTypeIds,
    blindCountUserTypeIds: s.blindCountUserTypeIds,
    tableOrdersDirect: s.tableOrdersDirect,
  };
}

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/** What the schema reads: cents and hundredths from the masked texts. */
function toInput(v: Values) {
  return {
    ...v,
    discountLimits: v.discountLimits.map((l) => ({
      userTypeId: l.userTypeId,
      line: centsOf(l.line),
      sale: centsOf(l.sale),
    })),
    budgetValidityDays: whole(v.budgetValidityDays),
    serviceFeePercent: centsOf(v.serviceFeePercent),
    couvertCents: centsOf(v.couvertCents),
    tabIdleMinutes: whole(v.tabIdleMinutes),
    delivery: {
      ...v.delivery,
      minimumOrderCents: centsOf(v.delivery.minimumOrderCents),
      estimateMinutes: whole(v.delivery.estimateMinutes),
    },
    returns: { windowDays: whole(v.returnWindowDays), userTypeIds: v.returnUserTypeIds },
    blindCountUserTypeIds: v.blindCountUserTypeIds,
    updatedAt: null,
  };
}

/** The user types that work at a till (issue 30: returns and the blind count are set for them). */
const TILL_TYPES = PDV.filter((t) => t !== UserType.DRIVER && t !== UserType.PARTNER_DRIVER);

/** A set of user types as checkboxes (a form field holding their ids). */
function UserTypeChecks({
  control,
  name,
  label,
}: {
  control: Control<Values, unknown, SystemSettingsData>;
  name: 'returnUserTypeIds' | 'blindCountUserTypeIds';
  label: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormGroup aria-label={label} row>
          {TILL_TYPES.map((t) => (
            <FormControlLabel
              key={t}
              label={USER_TYPES[t]}
              control={
                <Checkbox
                  checked={field.value.includes(t)}
                  onChange={(e) =>
                    field.onChange(
                      e.target.checked
                        ? [...field.value, t].sort((a, b) => a - b)
                        : field.value.filter((x) => x !== t),
                    )
                  }
                />
              }
            />
          ))}
        </FormGroup>
      )}
    />
  );
}

/** Sistema (/dashboard/settings/system): written by the Administrador only (ROUTES.md). */
export default function SystemPage() {
  const query = useSystemSettings();
  return (
    <>
      <SettingsQuery query={query}>{(settings) => <SystemForm settings={settings} />}</SettingsQuery>
      <ShopExportCard />
    </>
  );
}

function SystemForm({ settings }: { settings: SystemSettings }) {
  const { user, settingsChecklist } = useSession();
  const canWrite = can(user?.userType.id, WRITE.system);
  const save = useSaveSystem();
  const form = useAppForm<Values, SystemSettingsData>({
    schema: systemSettingsInputSchema,
    defaultValues: toValues(settings),
    toInput,
    fieldOf: { 'returns.windowDays': 'returnWindowDays' },
  });
  const { control } = form;
  const { version, saved } = useSyncedVersion(form, settings, toValues);

  return (
    <SettingsForm
      title="Sistema"
      label="Preferências do sistema"
      form={form}
      changedBy={settings}
      canWrite={canWrite}
      readOnlyNote="Você pode ver as preferências do sistema, mas só o Administrador pode alterá-las."
      onSubmit={async ({ updatedAt: _, ...values }) =>
        saved(await save.mutateAsync({ body: { ...values, updatedAt: version } }))
      }
    >
      <SettingsSection title="Geral">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormTextField
              control={control}
              name="timeZone"
              label="Fuso horário da loja"
              select
              helperText="Datas, horários e o “hoje” dos relatórios usam este fuso"
            >
              {TIME_ZONES.map((z) => (
                <MenuItem key={z.id} value={z.id}>
                  {z.label}
                </MenuItem>
              ))}
            </FormTextField>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Controller
              control={control}
              name="allowNegativeStock"
              render={({ field }) => (
                <Box>
                  <FormControlLabel
                    control={
                      <Switch
                        checked={Boolean(field.value)}
                        disabled={!settingsChecklist?.stockManagement}
                        onChange={(e) => field.onChange(e.target.checked)}
                      />
                    }
                    label="Permitir vender sem estoque"
                  />
                  <Typography variant="body2" color="text.secondary" sx={{ ml: 6 }}>
                    {settingsChecklist?.stockManagement
                      ? 'Vendas e saídas podem deixar o estoque negativo.'
                      : 'O controle de estoque está desativado (Dados da empresa).'}
                  </Typography>
                </Box>
              )}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 4 }}>
            <FormTextField
              control={control}
              name="budgetValidityDays"
              label="Validade padrão do orçamento"
              slotProps={{ htmlInput: { inputMode: 'numeric' }, input: { endAdornment: 'dias' } }}
            />
          </Grid>
        </Grid>
      </SettingsSection>

      <SettingsSection title="Limites de desconto">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Acima do limite, o PDV pede a senha de um Administrador ou Gerente, que fica registrado na venda.
          Administrador e Gerente não têm limite.
        </Typography>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Limites de desconto por tipo de usuário">
            <TableHead>
              <TableRow>
                <TableCell sx={{ px: { xs: 1, sm: 2 } }}>Tipo</TableCell>
                <TableCell sx={{ px: { xs: 0.5, sm: 2 } }}>Por item</TableCell>
                <TableCell sx={{ px: { xs: 0.5, sm: 2 } }}>Na venda</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {settings.discountLimits.map((limit, i) => (
                <TableRow key={limit.userTypeId}>
                  <TableCell sx={{ px: { xs: 1, sm: 2 } }}>
                    {USER_TYPES[limit.userTypeId as UserTypeId]}
                  </TableCell>
                  <TableCell sx={{ minWidth: 100, px: { xs: 0.5, sm: 2 } }}>
                    <FormMoneyField
                      control={control}
                      name={`discountLimits.${i}.line`}
                      suffix="%"
                      size="small"
                      slotProps={{
                        htmlInput: {
                          'aria-label': `Desconto por item, ${USER_TYPES[limit.userTypeId as UserTypeId]}`,
                        },
                      }}
                    />
                  </TableCell>
                  <TableCell sx={{ minWidth: 100, px: { xs: 0.5, sm: 2 } }}>
                    <FormMoneyField
                      control={control}
                      name={`discountLimits.${i}.sale`}
                      suffix="%"
                      size="small"
                      slotProps={{
                        htmlInput: {
                          'aria-label': `Desconto na venda, ${USER_TYPES[limit.userTypeId as UserTypeId]}`,
                        },
                      }}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </SettingsSection>

      <SettingsSection title="Comandas">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 4 }}>
            <FormMoneyField control={control} name="serviceFeePercent" label="Taxa de serviço" suffix="%" />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <FormMoneyField control={control} name="couvertCents" label="Couvert por pessoa" />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <FormTextField
              control={control}
              name="tabIdleMinutes"
              label="Comanda parada após"
              helperText="Comandas sem movimento por este tempo ficam destacadas"
              slotProps={{ htmlInput: { inputMode: 'numeric' }, input: { endAdornment: 'min' } }}
            />
          </Grid>
          <Grid size={12}>
            <FormSwitch control={control} name="tableOrdersDirect" label="Aceitar pedidos da mesa direto" />
            <Typography variant="body2" color="text.secondary">
              Pedidos feitos pelo QR Code da mesa vão direto para a comanda e a produção, sem a aprovação do
              garçom.
            </Typography>
          </Grid>
        </Grid>
      </SettingsSection>

      <SettingsSection title="Delivery">
        <Grid container spacing={2}>
          <Grid size={12}>
            <FormSwitch control={control} name="delivery.enabled" label="Aceitar pedidos de delivery" />
          </Grid>
          <Grid size={12}>
            {/* One source (issue 30 item 17): the freight rule's minimum order and delivery time. */}
            <Typography variant="body2" color="text.secondary">
              O pedido mínimo e o tempo de entrega prometido ficam nas{' '}
              <Link component={RouterLink} to="/dashboard/settings/shipping-settings">
                regras de frete
              </Link>
              : o PDV, o pedido por telefone e o painel usam os mesmos valores.
            </Typography>
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <FormTextField control={control} name="delivery.payment" label="Pagamento do delivery" select>
              {DELIVERY_PAYMENT_OPTIONS.map((option) => (
                <MenuItem key={option} value={option}>
                  {DELIVERY_PAYMENT_LABELS[option]}
                </MenuItem>
              ))}
            </FormTextField>
          </Grid>
        </Grid>
      </SettingsSection>

      <SettingsSection title="Trocas e devoluções">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 4 }}>
            <FormTextField
              control={control}
              name="returnWindowDays"
              label="Prazo de troca"
              helperText="Dias após a compra: combine com o rodapé do comprovante"
              slotProps={{ htmlInput: { inputMode: 'numeric' }, input: { endAdornment: 'dias' } }}
            />
          </Grid>
          <Grid size={12}>
            <Typography variant="body2" sx={{ mb: 0.5 }}>
              Fazem trocas e devoluções sem aprovação de um gerente:
            </Typography>
            <UserTypeChecks control={control} name="returnUserTypeIds" label="Trocas sem aprovação" />
          </Grid>
        </Grid>
      </SettingsSection>

      <SettingsSection title="Fechamento de caixa">
        <Typography variant="body2" sx={{ mb: 0.5 }}>
          Contagem às cegas: quem fecha o caixa conta sem ver os valores esperados e vê a diferença depois de
          confirmar.
        </Typography>
        <UserTypeChecks control={control} name="blindCountUserTypeIds" label="Contagem às cegas" />
      </SettingsSection>

      {/* Issue 36: the scale's weighed labels, saved on their own. */}
      <ScaleSettingsSection />

      {/* Issue 37: the nightly backup, saved on its own (the operator's Administrador only). */}
      <BackupScheduleSection />
    </SettingsForm>
  );
}
