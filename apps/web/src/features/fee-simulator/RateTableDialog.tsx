import {
  ANTICIPATION_MODEL_LABELS,
  ANTICIPATION_MODELS,
  blankFeeTable,
  FEE_MAX_INSTALLMENTS,
  FEE_PRESETS,
  type FeeTable,
  type FeeTableValues,
  feeTableInputSchema,
} from '@balcao/core/fees';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { type FieldPath, useWatch } from 'react-hook-form';
import {
  Form,
  FormError,
  FormMoneyField,
  FormSwitch,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { shopToday } from '../../lib/format.ts';
import { useCreateFeeTable, useUpdateFeeTable } from './api.ts';

/** The form's values: rates as the percent inputs show them ("3,79"), all 18 credit inputs kept. */
type Values = {
  presetKey: string;
  name: string;
  acquirer: string;
  plan: string;
  tier: string;
  settlementLabel: string;
  brandGroup: string;
  ratesDate: string;
  verified: boolean;
  debitRate: string;
  pixRate: string;
  installments: number;
  creditRates: string[];
  anticipationModel: FeeTableValues['anticipationModel'];
  anticipationRate: string;
  anticipationBasis: FeeTableValues['anticipationBasis'];
  linearSkipsFirst: boolean;
  settlementDays: string;
  settlesAtOnce: boolean;
  buyerInterestRate: string;
};

/** 10.9 -> "10,90", as the acquirers print their rates. */
const rateText = (rate: number | null) => (rate === null ? '' : rate.toFixed(2).replace('.', ','));

type Start = Omit<FeeTableValues, 'updatedAt' | 'presetKey'> & { presetKey: string | null };

function valuesOf(table: Start): Values {
  const credit = table.creditRates.map(rateText);
  return {
    presetKey: table.presetKey ?? '',
    name: table.name,
    acquirer: table.acquirer,
    plan: table.plan,
    tier: table.tier,
    settlementLabel: table.settlementLabel,
    brandGroup: table.brandGroup,
    ratesDate: table.ratesDate,
    verified: table.verified,
    debitRate: rateText(table.debitRate),
    pixRate: rateText(table.pixRate),
    installments: table.creditRates.length,
    creditRates: [...credit, ...Array<string>(FEE_MAX_INSTALLMENTS - credit.length).fill('')],
    anticipationModel: table.anticipationModel,
    anticipationRate: rateText(table.anticipationRate),
    anticipationBasis: table.anticipationBasis,
    linearSkipsFirst: table.linearSkipsFirst,
    settlementDays: String(table.settlementDays),
    settlesAtOnce: table.settlesAtOnce,
    buyerInterestRate: rateText(table.buyerInterestRate),
  };
}

function startOf(presetKey: string): Start {
  const preset = FEE_PRESETS.find((p) => p.key === presetKey);
  if (!preset) return { ...blankFeeTable(shopToday()), presetKey: null };
  const { key, note: _note, ...fields } = preset;
  return { ...fields, presetKey: key };
}

/**
 * A rate table of the shop: a new one starts from a dated preset (or blank, for negotiated rates
 * such as Stone's), an existing one is edited with its version.
 */
export function RateTableDialog({
  table,
  onClose,
  onSaved,
}: {
  table: FeeTable | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const create = useCreateFeeTable();
  const update = useUpdateFeeTable();
  const [start] = useState<Start>(() => table ?? startOf(FEE_PRESETS[0].key));
  const form = useAppForm<Values, FeeTableValues>({
    schema: feeTableInputSchema,
    defaultValues: valuesOf(start),
    toInput: (v) => ({
      ...v,
      presetKey: v.presetKey || null,
      creditRates: v.creditRates.slice(0, v.installments),
      updatedAt: table?.updatedAt,
    }),
  });
  const [installments, model, presetKey] = useWatch({
    control: form.control,
    name: ['installments', 'anticipationModel', 'presetKey'],
  });
  const note = FEE_PRESETS.find((p) => p.key === presetKey)?.note;

  const submit = async (values: FeeTableValues) => {
    if (table) await update.mutateAsync({ params: { id: table.id }, body: values });
    else await create.mutateAsync({ body: values });
    onSaved(table ? 'Tabela de taxas salva' : 'Tabela de taxas criada');
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="fee-table-title">
      <Form form={form} onSubmit={submit} aria-label="Tabela de taxas">
        <DialogTitle id="fee-table-title">
          {table ? 'Editar tabela de taxas' : 'Nova tabela de taxas'}
        </DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          {!table && (
            <TextField
              select
              label="Começar de"
              value={presetKey}
              onChange={(e) => form.reset(valuesOf(startOf(e.target.value)))}
              helperText="Os modelos trazem as taxas publicadas, com a data; confira as do seu contrato."
            >
              {FEE_PRESETS.map((p) => (
                <MenuItem key={p.key} value={p.key}>
                  {p.name}
                  {p.verified ? '' : ' (não verificada)'}
                </MenuItem>
              ))}
              <MenuItem value="">Em branco (taxas negociadas, como Stone)</MenuItem>
            </TextField>
          )}
          {note && <Alert severity="info">{note}</Alert>}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <FormTextField control={form.control} name="name" label="Nome da tabela" />
            <FormTextField control={form.control} name="acquirer" label="Adquirente" />
            <FormTextField control={form.control} name="plan" label="Plano" />
            <FormTextField control={form.control} name="tier" label="Faixa de faturamento" />
            <FormTextField control={form.control} name="settlementLabel" label="Recebimento" />
            <FormTextField control={form.control} name="brandGroup" label="Bandeiras" />
            <FormTextField
              control={form.control}
              name="ratesDate"
              type="date"
              label="Data das taxas"
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <FormSwitch control={form.control} name="verified" label="Taxas verificadas" />
          </Box>
          <Typography variant="subtitle2">Débito, Pix e crédito (%)</Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' } }}>
            <FormMoneyField
              control={form.control}
              name="debitRate"
              label="Débito"
              suffix="%"
              helperText="Deixe em branco se não houver débito"
            />
            <FormMoneyField
              control={form.control}
              name="pixRate"
              label="Pix"
              suffix="%"
              helperText="Deixe em branco se não houver Pix"
            />
            <FormTextField control={form.control} name="installments" select label="Parcelas até">
              {Array.from({ length: FEE_MAX_INSTALLMENTS }, (_, i) => i + 1).map((n) => (
                <MenuItem key={n} value={n}>
                  {n}x
                </MenuItem>
              ))}
            </FormTextField>
          </Box>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(6, 1fr)' } }}>
            {Array.from({ length: installments }, (_, i) => (
              <FormMoneyField
                // biome-ignore lint/suspicious/noArrayIndexKey: one input per installment count
                key={i}
                control={form.control}
                name={`creditRates.${i}` as FieldPath<Values>}
                label={`Crédito ${i + 1}x`}
                suffix="%"
              />
            ))}
          </Box>
          <Typography variant="subtitle2">Antecipação e recebimento</Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
            <FormTextField
              control={form.control}
              name="anticipationModel"
              select
              label="Modelo de antecipação"
            >
              {ANTICIPATION_MODELS.map((m) => (
                <MenuItem key={m} value={m}>
                  {ANTICIPATION_MODEL_LABELS[m]}
                </MenuItem>
              ))}
            </FormTextField>
            <FormMoneyField
              control={form.control}
              name="anticipationRate"
              label="Antecipação ao mês"
              suffix="%"
              disabled={model === 'none'}
            />
            {model === 'simple' || model === 'compound' ? (
              <FormTextField
                control={form.control}
                name="anticipationBasis"
                select
                label="Prazo da antecipação"
              >
                <MenuItem value="monthly">Por mês de parcela</MenuItem>
                <MenuItem value="daily">Por dia (dias corridos)</MenuItem>
              </FormTextField>
            ) : (
              <Box />
            )}
            <FormTextField
              control={form.control}
              name="settlementDays"
              label="Dias até receber"
              helperText="D+ do crédito (1ª parcela)"
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <FormMoneyField
              control={form.control}
              name="buyerInterestRate"
              label="Juros do comprador ao mês"
              suffix="%"
            />
          </Box>
          {model === 'linear' && (
            <FormSwitch
              control={form.control}
              name="linearSkipsFirst"
              label="A 1ª parcela não é antecipada: a×(n−1)"
            />
          )}
          {model === 'none' && (
            <FormSwitch
              control={form.control}
              name="settlesAtOnce"
              label="Recebe todas as parcelas de uma vez (antecipação inclusa na taxa)"
            />
          )}
          <FormError />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancelar</Button>
          <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
