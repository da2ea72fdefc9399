import {
  CLASS_TRIB_NFCE,
  CLASS_TRIBS,
  PRODUCT_FISCAL_FIELDS,
  PRODUCT_FISCAL_LABELS,
  type ProductFiscal,
  type ProductFiscalField,
  type ProductFiscalOverride,
  productFiscalInputSchema,
} from '@balcao/core/fiscal';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Feedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { useProductFiscal, useSaveProductFiscal } from './api.ts';

type Values = Record<ProductFiscalField, string>;

const valuesOf = (fields: ProductFiscalOverride | null): Values =>
  Object.fromEntries(PRODUCT_FISCAL_FIELDS.map((f) => [f, fields?.[f] ?? ''])) as Values;

/** Blank fields follow the shop's default: they are left out. */
const toInput = (v: Values) => ({
  fields: Object.fromEntries(
    PRODUCT_FISCAL_FIELDS.flatMap((f) => {
      const text = v[f].trim();
      if (text === '') return [];
      return [[f, f === 'unit' ? text.toUpperCase() : text.replace(/[.\s]/g, '')]];
    }),
  ),
});

const HELP: Partial<Record<ProductFiscalField, string>> = {
  ncm: '8 dígitos',
  cfop: '4 dígitos, venda no estado: 5xxx',
  origin: '0 a 8 (0 = nacional)',
  cest: '7 dígitos, quando houver substituição tributária',
  cClassTrib: 'IBS/CBS: os 3 primeiros dígitos são o CST',
};

/**
 * The product's NFC-e fields on its edit page (issue 32): each field left blank follows the shop's
 * default, shown as the placeholder. Only for a shop that set up NFC-e (Configurações > Fiscal).
 */
export function ProductFiscalSection({
  productId,
  onFeedback,
}: {
  productId: number;
  onFeedback: (f: Feedback) => void;
}) {
  const fiscal = useProductFiscal(productId);
  if (!fiscal.data?.defaults) return null;
  return (
    <FiscalForm
      key={JSON.stringify(fiscal.data.fields)}
      productId={productId}
      fields={fiscal.data.fields}
      defaults={fiscal.data.defaults}
      onFeedback={onFeedback}
    />
  );
}

function FiscalForm({
  productId,
  fields,
  defaults,
  onFeedback,
}: {
  productId: number;
  fields: ProductFiscalOverride | null;
  defaults: ProductFiscal;
  onFeedback: (f: Feedback) => void;
}) {
  const save = useSaveProductFiscal();
  const form = useAppForm<Values, ReturnType<typeof productFiscalInputSchema.parse>>({
    schema: productFiscalInputSchema,
    defaultValues: valuesOf(fields),
    toInput,
    fieldOf: (path) => path.replace(/^fields\./, ''),
  });
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }}>
      <Form
        form={form}
        aria-label="Dados fiscais"
        onSubmit={async (values) => {
          const saved = await save.mutateAsync({ params: { id: productId }, body: values });
          form.reset(valuesOf(saved.fields));
          onFeedback({ severity: 'success', title: 'Dados fiscais do produto salvos' });
        }}
      >
        <Stack spacing={2}>
          <Box>
            <Typography variant="h6" component="h2">
              Dados fiscais (NFC-e)
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Em branco, vale o padrão da loja (Configurações &gt; Fiscal), mostrado no campo.
            </Typography>
          </Box>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(3, 1fr)', lg: 'repeat(4, 1fr)' },
            }}
          >
            {PRODUCT_FISCAL_FIELDS.map((f) =>
              f === 'cClassTrib' ? (
                <FormTextField
                  key={f}
                  control={form.control}
                  name={f}
                  label={PRODUCT_FISCAL_LABELS[f]}
                  helperText={HELP[f]}
                  select
                  sx={{ gridColumn: { xs: '1 / -1', lg: 'span 2' } }}
                  slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
                >
                  <MenuItem value="">Padrão da loja ({defaults.cClassTrib ?? '000001'})</MenuItem>
                  {CLASS_TRIBS.map((c) => (
                    <MenuItem key={c} value={c}>
                      {c} - {CLASS_TRIB_NFCE[c].label}
                    </MenuItem>
                  ))}
                </FormTextField>
              ) : (
                <FormTextField
                  key={f}
                  control={form.control}
                  name={f}
                  label={PRODUCT_FISCAL_LABELS[f]}
                  placeholder={defaults[f] ?? 'sem'}
                  helperText={HELP[f]}
                  slotProps={{
                    inputLabel: { shrink: true },
                    htmlInput: {
                      inputMode: f === 'unit' ? 'text' : 'numeric',
                      maxLength: f === 'ncm' ? 10 : 9,
                    },
                  }}
                />
              ),
            )}
          </Box>
          <FormError />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <SubmitButton busyLabel="Salvando...">Salvar dados fiscais</SubmitButton>
          </Stack>
        </Stack>
      </Form>
    </Paper>
  );
}
