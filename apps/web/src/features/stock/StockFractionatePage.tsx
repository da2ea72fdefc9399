import {
  formatQuantity,
  numberToQuantityInput,
  type Product,
  type ProductListItem,
} from '@balcao/core/product';
import { fractionTargetFor, stockFractionateInputSchema, toThousandths } from '@balcao/core/stock';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { QuantityField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../auth/session.tsx';
import { canWriteStock, fetchProduct, useFractionate, useFractionRatios } from './api.ts';
import { apiIssues, ReadOnlyNotice } from './components/common.tsx';
import { ProductPicker } from './components/ProductPicker.tsx';
import { StockHistory } from './components/StockHistory.tsx';

type Side = {
  product: ProductListItem | null;
  full: Product | null;
  variantId: number | null;
  quantity: string;
};
const emptySide: Side = { product: null, full: null, variantId: null, quantity: '' };
type Field =
  | 'sourceProductId'
  | 'sourceVariantId'
  | 'sourceQuantity'
  | 'targetProductId'
  | 'targetVariantId'
  | 'targetQuantity';

/**
 * Fracionar (/dashboard/stock-movement/fractionate): N units of a source product (a "Caixa 12 un")
 * go out and M units of a target ("Unidade") come in, in one transaction. The last ratio used for
 * the pair is remembered: picking the source offers its usual targets, and the target quantity
 * follows N with that ratio until the user types another. History below, on fractioning.
 */
export default function StockFractionatePage() {
  const { user } = useSession();
  const clientId = user?.client.id;
  const canWrite = canWriteStock(user?.userType.id);
  const [source, setSource] = useState<Side>({ ...emptySide, quantity: '1' });
  const [target, setTarget] = useState<Side>(emptySide);
  const [targetTyped, setTargetTyped] = useState(false);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const ratios = useFractionRatios(clientId, source.product?.id);
  const ratio = ratios.data?.find((r) => r.targetProductId === target.product?.id);
  const mutation = useFractionate();
  const { state, show, close } = useFeedback();

  // The remembered ratio fills M from N until the user types M.
  useEffect(() => {
    if (!ratio || targetTyped) return;
    const n = toThousandths(source.quantity || '');
    if (Number.isNaN(n) || n <= 0) return;
    setTarget((t) => ({ ...t, quantity: numberToQuantityInput(fractionTargetFor(ratio, n / 1000)) }));
  }, [ratio, source.quantity, targetTyped]);

  const pick = async (side: 'source' | 'target', product: ProductListItem | null) => {
    const set = side === 'source' ? setSource : setTarget;
    if (side === 'target') setTargetTyped(false);
    set((s) => ({ ...s, product, full: null, variantId: null }));
    if (product && product.variantCount > 0) {
      try {
        const full = await fetchProduct(product.id);
        set((s) => (s.product?.id === product.id ? { ...s, full } : s));
      } catch (error) {
        show({ severity: 'error', title: 'Erro ao carregar o produto', message: errorMessage(error) });
      }
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = stockFractionateInputSchema.safeParse({
      sourceProductId: source.product?.id,
      sourceVariantId: source.variantId,
      sourceQuantity: source.quantity,
      targetProductId: target.product?.id,
      targetVariantId: target.variantId,
      targetQuantity: target.quantity,
      note,
    });
    const next: Partial<Record<Field, string>> = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = issue.path[0] as Field;
      next[field] ??= issue.message;
    }
    if (source.full?.variants.length && source.variantId === null)
      next.sourceVariantId = 'Escolha a variação';
    if (target.full?.variants.length && target.variantId === null)
      next.targetVariantId = 'Escolha a variação';
    setErrors(next);
    if (!parsed.success || Object.keys(next).length > 0) return;
    mutation.mutate(parsed.data, {
      onSuccess: () => {
        show({
          severity: 'success',
          title: 'Fracionamento registrado com sucesso',
          message: `${formatQuantity(parsed.data.sourceQuantity, source.product?.unit)} de ${source.product?.name} → ${formatQuantity(parsed.data.targetQuantity, target.product?.unit)} de ${target.product?.name}`,
        });
        setSource((s) => ({ ...s, quantity: '1' }));
        setTargetTyped(false);
        setNote('');
      },
      onError: (error) => {
        const fromServer: Partial<Record<Field, string>> = {};
        for (const issue of apiIssues(error)) fromServer[issue.path[0] as Field] ??= issue.message;
        setErrors(fromServer);
        show({ severity: 'error', title: 'Erro ao fracionar', message: errorMessage(error) });
      },
    });
  };

  const sourceQty = toThousandths(source.quantity || '');
  const targetQty = toThousandths(target.quantity || '');
  const preview =
    source.product && target.product && sourceQty > 0 && targetQty > 0
      ? `Sairão ${formatQuantity(sourceQty / 1000, source.product.unit)} de ${source.product.name} e entrarão ${formatQuantity(targetQty / 1000, target.product.unit)} de ${target.product.name}.`
      : null;

  return (
    <Box sx={{ maxWidth: 1200 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        Fracionar
      </Typography>
      {!canWrite && <ReadOnlyNotice />}
      <Stack sx={{ gap: 3 }}>
        <Paper
          component="form"
          aria-label="Fracionamento"
          onSubmit={submit}
          noValidate
          sx={{ p: { xs: 2, sm: 3 } }}
        >
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
              errors={{
                product: errors.sourceProductId,
                variant: errors.sourceVariantId,
                quantity: errors.sourceQuantity,
              }}
              quantityLabel="Quantidade que sai"
              onPick={(p) => void pick('source', p)}
              onChange={(changes) => setSource((s) => ({ ...s, ...changes }))}
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
              errors={{
                product: errors.targetProductId,
                variant: errors.targetVariantId,
                quantity: errors.targetQuantity,
              }}
              quantityLabel="Quantidade que entra"
              quantityHelper={
                ratio
                  ? `Proporção lembrada: ${formatQuantity(ratio.sourceQuantity)} → ${formatQuantity(ratio.targetQuantity)}`
                  : undefined
              }
              onPick={(p) => void pick('target', p)}
              onChange={(changes) => {
                if (changes.quantity !== undefined) setTargetTyped(true);
                setTarget((s) => ({ ...s, ...changes }));
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
          <TextField
            label="Observação"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            disabled={!canWrite}
            fullWidth
            sx={{ mt: 3 }}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          {preview && (
            <Alert severity="info" sx={{ mt: 2 }} data-testid="fractionate-preview">
              {preview}
            </Alert>
          )}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
            <Button type="submit" variant="contained" disabled={!canWrite || mutation.isPending}>
              {mutation.isPending ? 'Fracionando...' : 'Fracionar'}
            </Button>
          </Box>
        </Paper>
        <StockHistory clientId={clientId} defaultType="fractionate-out,fractionate-in" />
      </Stack>
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
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
