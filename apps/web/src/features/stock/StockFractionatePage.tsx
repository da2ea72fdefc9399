import {
  formatQuantity,
  numberToQuantityInput,
  type Product,
  type ProductListItem,
} from '@balcao/core/product';
import {
  fractionTargetFor,
  type StockFractionateInputParsed,
  stockFractionateInputSchema,
  toThousandths,
} from '@balcao/core/stock';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Form, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { QuantityField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { fetchProduct } from '../product/index.ts';
import { useFractionate, useFractionRatios } from './api.ts';
import { StockPage, useStockPage } from './components/common.tsx';
import { ProductPicker } from './components/ProductPicker.tsx';

type Side = {
  product: ProductListItem | null;
  full: Product | null;
  variantId: number | null;
  quantity: string;
};
const emptySide: Side = { product: null, full: null, variantId: null, quantity: '' };
type Values = { source: Side; target: Side; note: string };
const EMPTY: Values = { source: { ...emptySide, quantity: '1' }, target: emptySide, note: '' };

/** The schema's sourceProductId / targetQuantity... as the form's source.product / target.quantity. */
const sideField = (_: string, side: string, field: string) =>
  `${side}.${field === 'ProductId' ? 'product' : field === 'VariantId' ? 'variantId' : 'quantity'}`;

/**
 * Fracionar (/dashboard/stock-movement/fractionate): N units of a source product (a "Caixa 12 un")
 * go out and M units of a target ("Unidade") come in, in one transaction. The last ratio used for
 * the pair is remembered: picking the source offers its usual targets, and the target quantity
 * follows N with that ratio until the user types another. History below, on fractioning.
 */
export default function StockFractionatePage() {
  const page = useStockPage();
  const { clientId, canWrite, show } = page;
  const [targetTyped, setTargetTyped] = useState(false);
  const mutation = useFractionate();
  const form = useAppForm({
    schema: stockFractionateInputSchema,
    defaultValues: EMPTY,
    toInput: ({ source, target, note }: Values) => ({
      sourceProductId: source.product?.id,
      sourceVariantId: source.variantId,
      sourceQuantity: source.quantity,
      targetProductId: target.product?.id,
      targetVariantId: target.variantId,
      targetQuantity: target.quantity,
      note,
    }),
    fieldOf: (path) => path.replace(/^(source|target)(ProductId|VariantId|Quantity)$/, sideField),
    check: ({ source, target }) =>
      (['source', 'target'] as const).flatMap((name) => {
        const side = name === 'source' ? source : target;
        return side.full?.variants.length && side.variantId === null
          ? [{ path: `${name}.variantId`, message: 'Escolha a variação' }]
          : [];
      }),
  });
  const { source, target } = useWatch({ control: form.control }) as Values;
  const errors = form.formState.errors;
  const ratios = useFractionRatios(clientId, source.product?.id);
  const ratio = ratios.data?.find((r) => r.targetProductId === target.product?.id);

  const setSide = useCallback(
    (name: 'source' | 'target', change: (side: Side) => Side) =>
      form.setValue(name, change(form.getValues(name)), { shouldValidate: form.formState.isSubmitted }),
    [form],
  );

  // The remembered ratio fills M from N until the user types M.
  useEffect(() => {
    if (!ratio || targetTyped) return;
    const n = toThousandths(source.quantity || '');
    if (Number.isNaN(n) || n <= 0) return;
    setSide('target', (t) => ({ ...t, quantity: numberToQuantityInput(fractionTargetFor(ratio, n / 1000)) }));
  }, [ratio, source.quantity, targetTyped, setSide]);

  const pick = async (name: 'source' | 'target', product: ProductListItem | null) => {
    if (name === 'target') setTargetTyped(false);
    setSide(name, (s) => ({ ...s, product, full: null, variantId: null }));
    if (product && product.variantCount > 0) {
      try {
        const full = await fetchProduct(product.id);
        setSide(name, (s) => (s.product?.id === product.id ? { ...s, full } : s));
      } catch (error) {
        show({ severity: 'error', title: 'Erro ao carregar o produto', message: errorMessage(error) });
      }
    }
  };

  const submit = async (values: StockFractionateInputParsed) => {
    await mutation.mutateAsync({ body: values });
    show({
      severity: 'success',
      title: 'Fracionamento registrado com sucesso',
      message: `${formatQuantity(values.sourceQuantity, source.product?.unit)} de ${source.product?.name} → ${formatQuantity(values.targetQuantity, target.product?.unit)} de ${target.product?.name}`,
    });
    setTargetTyped(false);
    form.reset({ source: { ...source, quantity: '1' }, target, note: '' });
  };

  const sideErrors = (name: 'source' | 'target') => ({
    product: errors[name]?.product?.message,
    variant: errors[name]?.variantId?.message,
    quantity: errors[name]?.quantity?.message,
  });

  const sourceQty = toThousandths(source.quantity || '');
  const targetQty = toThousandths(target.quantity || '');
  const preview =
    source.product && target.product && sourceQty > 0 && targetQty > 0
      ? `Sairão ${formatQuantity(sourceQty / 1000, source.product.unit)} de ${source.product.name} e entrarão ${formatQuantity(targetQty / 1000, target.product.unit)} de ${target.product.name}.`
      : null;

  return (
    <StockPage page={page} title="Fracionar" historyType="fractionate-out,fractionate-in">
      <Form
        form={form}
        onSubmit={submit}
        onError={(message) => show({ severity: 'error', title: 'Erro ao fracionar', message })}
        aria-label="Fracionamento"
      >
        <Paper sx={{ p: { xs: 2, sm: 3 } }}>
          <Box
            sx={{
              display: 'grid',
              gap: 3,
              alignItems: 'start',
              gridTemplateColumns: { xs: '1fr', md: '1fr auto 1fr' },
            }}
          >
            <SideFields
              title="Origem"
              hint="ex.: Caixa 12 un"
              clientId={clientId}
              side={source}
              disabled={!canWrite}
              errors={sideErrors('source')}
              quantityLabel="Quantidade que sai"
              onPick={(p) => void pick('source', p)}
              onChange={(changes) => setSide('source', (s) => ({ ...s, ...changes }))}
            />
            <ArrowForwardIcon
              sx={{ alignSelf: 'center', display: { xs: 'none', md: 'block' } }}
              aria-hidden
            />
            <SideFields
              title="Destino"
              hint="ex.: Unidade"
              clientId={clientId}
              side={target}
              disabled={!canWrite}
              errors={sideErrors('target')}
              quantityLabel="Quantidade que entra"
              quantityHelper={
                ratio
                  ? `Proporção lembrada: ${formatQuantity(ratio.sourceQuantity)} → ${formatQuantity(ratio.targetQuantity)}`
                  : undefined
              }
              onPick={(p) => void pick('target', p)}
              onChange={(changes) => {
                if (changes.quantity !== undefined) setTargetTyped(true);
                setSide('target', (s) => ({ ...s, ...changes }));
              }}
            />
          </Box>
          {source.product && !target.product && (ratios.data?.length ?? 0) > 0 && (
            <Box sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
              <Typography variant="body2" color="text.secondary">
                Fracionado antes em:
              </Typography>
              {ratios.data?.map((r) => (
                <Chip
                  key={r.targetProductId}
                  label={`${r.targetProductName} (${formatQuantity(r.sourceQuantity)} → ${formatQuantity(r.targetQuantity)})`}
                  onClick={async () => {
                    try {
                      const p = await fetchProduct(r.targetProductId);
                      await pick('target', p);
                    } catch (error) {
                      show({
                        severity: 'error',
                        title: 'Erro ao carregar o produto',
                        message: errorMessage(error),
                      });
                    }
                  }}
                  disabled={!canWrite}
                />
              ))}
            </Box>
          )}
          <FormTextField
            control={form.control}
            name="note"
            label="Observação"
            disabled={!canWrite}
            sx={{ mt: 3 }}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          {preview && (
            <Alert severity="info" sx={{ mt: 2 }} data-testid="fractionate-preview">
              {preview}
            </Alert>
          )}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
            <SubmitButton busyLabel="Fracionando..." disabled={!canWrite}>
              Fracionar
            </SubmitButton>
          </Box>
        </Paper>
      </Form>
    </StockPage>
  );
}

function SideFields({
  title,
  hint,
  clientId,
  side,
  disabled,
  errors,
  quantityLabel,
  quantityHelper,
  onPick,
  onChange,
}: {
  title: string;
  hint: string;
  clientId: number | undefined;
  side: Side;
  disabled: boolean;
  errors: { product?: string; variant?: string; quantity?: string };
  quantityLabel: string;
  quantityHelper?: string;
  onPick: (product: ProductListItem | null) => void;
  onChange: (changes: Partial<Side>) => void;
}) {
  const variants = side.full?.variants ?? [];
  const variant = variants.find((v) => v.id === side.variantId);
  const stock = variant ? variant.stock : side.product?.stock;
  return (
    <Stack component="fieldset" sx={{ gap: 2, border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="h6" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <ProductPicker
        clientId={clientId}
        label={`Produto de ${title.toLowerCase()}`}
        placeholder={hint}
        value={side.product}
        onChange={onPick}
        disabled={disabled}
        error={Boolean(errors.product)}
        helperText={
          errors.product ??
          (side.product && stock !== undefined
            ? `Estoque atual: ${formatQuantity(stock, side.product.unit)}`
            : undefined)
        }
      />
      {variants.length > 0 && (
        <TextField
          select
          label="Variação"
          value={side.variantId ?? ''}
          onChange={(e) => onChange({ variantId: Number(e.target.value) })}
          error={Boolean(errors.variant)}
          helperText={errors.variant}
          disabled={disabled}
        >
          {variants.map((v) => (
            <MenuItem key={v.id} value={v.id}>
              {v.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <QuantityField
        label={quantityLabel}
        value={side.quantity}
        onChange={(text) => onChange({ quantity: text })}
        suffix={side.product?.unit ?? 'un'}
        error={Boolean(errors.quantity)}
        helperText={errors.quantity ?? quantityHelper}
        disabled={disabled}
      />
    </Stack>
  );
}
