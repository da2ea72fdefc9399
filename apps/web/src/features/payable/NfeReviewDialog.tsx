import { formatCents } from '@balcao/core/money';
import {
  type NfeEntryItem,
  type NfeReview,
  type NfeReviewItem,
  nfeFactorSchema,
  nfeStockFigures,
} from '@balcao/core/payable';
import { formatQuantity, type ProductListItem } from '@balcao/core/product';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { centsOf, MoneyField } from '../../components/MoneyField.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDate } from '../../lib/format.ts';
import { useDebouncedValue } from '../../lib/useDebouncedValue.ts';
import { productQueries } from '../product/index.ts';
import { useNamedOptions } from '../product-category/index.ts';

/** What the review decided for one item of the note. */
type Choice =
  | {
      kind: 'match';
      productId: number;
      variantId: number | null;
      name: string;
      by: 'barcode' | 'supplierCode' | 'hand';
    }
  | { kind: 'new'; name: string; categoryId: number | ''; price: string }
  | { kind: 'pick'; product: ProductListItem | null }
  /** A product with a grid picked by hand: its variant (size/colour) still to choose. */
  | { kind: 'variant'; productId: number; name: string };

const BY_LABEL = {
  barcode: 'pelo código de barras',
  supplierCode: 'pelo código do fornecedor',
  hand: 'escolhido',
} as const;

function initialChoice(item: NfeReviewItem): Choice {
  if (item.match?.needsVariant)
    return { kind: 'variant', productId: item.match.productId, name: item.match.name };
  if (item.match) {
    const { needsVariant: _, ...match } = item.match;
    return { kind: 'match', ...match };
  }
  return { kind: 'new', name: item.description, categoryId: '', price: '' };
}

/** The error a choice still has, null when it can be sent. */
function problemOf(choice: Choice): string | null {
  if (choice.kind === 'pick' && !choice.product) return 'Escolha o produto';
  if (choice.kind === 'variant') return 'Escolha a variação (cor/tamanho)';
  if (choice.kind === 'new') {
    if (!choice.name.trim()) return 'Informe o nome do produto';
    const price = centsOf(choice.price);
    if (!choice.price || Number.isNaN(price)) return 'Informe o preço de venda';
  }
  return null;
}

/** The factor typed ("12", "0,5") as a number, or the message of why it is not one. */
function factorOf(text: string): { factor: number } | { error: string } {
  const value = text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.'));
  const parsed = nfeFactorSchema.safeParse(value);
  return parsed.success ? { factor: parsed.data } : { error: parsed.error.issues[0].message };
}

const factorText = (factor: number) => String(factor).replace('.', ',');

/** "Entram 24 no estoque, a R$ 4,16 cada (pela unidade tributável: 24 UN)": the line in the product's units. */
function conversionText(item: NfeReviewItem, factor: number, typed: string): string {
  const figures = nfeStockFigures(item.quantity, item.totalCents, factor);
  const source =
    item.factorFrom === 'remembered' && typed === factorText(item.factor)
      ? ' (lembrado da última nota)'
      : item.factorFrom === 'taxUnit' && typed === factorText(item.factor)
        ? ` (pela unidade tributável: ${formatQuantity(item.taxQuantity)} ${item.taxUnit})`
        : '';
  return `Entram ${formatQuantity(figures.quantity)} no estoque, a ${formatCents(figures.unitCostCents)} cada${source}`;
}

function toEntryItem(index: number, choice: Choice): NfeEntryItem {
  if (choice.kind === 'match') return { index, productId: choice.productId, variantId: choice.variantId };
  if (choice.kind === 'pick') return { index, productId: choice.product?.id ?? 0 };
  if (choice.kind === 'variant') return { index, productId: choice.productId };
  return {
    index,
    newProduct: {
      name: choice.name.trim(),
      categoryId: choice.categoryId === '' ? null : choice.categoryId,
      salePriceCents: centsOf(choice.price),
    },
  };
}

function ProductSearch({
  clientId,
  value,
  onChange,
  error,
  label,
}: {
  clientId: number;
  value: ProductListItem | null;
  onChange: (p: ProductListItem | null) => void;
  error: string | null;
  label: string;
}) {
  const [input, setInput] = useState('');
  const q = useDebouncedValue(input.trim());
  const options = useQuery({
    ...productQueries.search(clientId, q, { pageSize: 10 }),
    select: (data) => data.items,
    staleTime: 10_000,
  });
  const settled = input.trim() === q;
  const items = settled ? (options.data ?? []) : [];
  return (
    <Autocomplete
      size="small"
      value={value}
      onChange={(_, picked) => onChange(picked)}
      inputValue={input}
      onInputChange={(_, text) => setInput(text)}
      options={value && !items.some((p) => p.id === value.id) ? [value, ...items] : items}
      filterOptions={(list) => list}
      getOptionLabel={(p) => p.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching || !settled}
      loadingText="Carregando..."
      noOptionsText={q ? 'Nenhum produto encontrado' : 'Digite para buscar'}
      renderInput={(params) => (
        <TextField {...params} label={label} error={Boolean(error)} helperText={error ?? ' '} />
      )}
    />
  );
}

/** The variants (size/colour) of a product picked by hand; the item enters the stock of the one chosen. */
function VariantSelect({
  productId,
  label,
  error,
  onChange,
}: {
  productId: number;
  label: string;
  error: string | null;
  onChange: (variant: { id: number; name: string }) => void;
}) {
  const product = useQuery(productQueries.detail(productId));
  const variants = (product.data?.variants ?? []).filter((v) => v.active);
  return (
    <TextField
      select
      size="small"
      label={label}
      value=""
      onChange={(e) => {
        const picked = variants.find((v) => v.id === Number(e.target.value));
        if (picked) onChange(picked);
      }}
      error={Boolean(error)}
      helperText={product.isError ? errorMessage(product.error) : (error ?? ' ')}
      sx={{ minWidth: 220 }}
    >
      {variants.map((v) => (
        <MenuItem key={v.id} value={v.id}>
          {v.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

type Props = {
  review: NfeReview;
  clientId: number;
  /** The user may move stock (the entry); otherwise only the bills can be made. */
  canEnterStock: boolean;
  busy: boolean;
  onClose: () => void;
  onEntry: (items: NfeEntryItem[]) => Promise<void>;
  onBillsOnly: () => Promise<void>;
};

/**
 * The review of a supplier's NF-e before it enters the stock (issue 34): each item with the product it
 * was matched to (by barcode or by the supplier's code remembered from an earlier note), or, when none,
 * a new product (name, category, sale price) or one picked by hand (a product with a grid asks for the
 * variant: size/colour); the duplicatas that become bills.
 */
export function NfeReviewDialog({
  review,
  clientId,
  canEnterStock,
  busy,
  onClose,
  onEntry,
  onBillsOnly,
}: Props) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  const categories = useNamedOptions('product-category', clientId);
  const [choices, setChoices] = useState<Record<number, Choice>>(() =>
    Object.fromEntries(review.items.map((item) => [item.index, initialChoice(item)])),
  );
  const [factors, setFactors] = useState<Record<number, string>>(() =>
    Object.fromEntries(review.items.map((item) => [item.index, factorText(item.factor)])),
  );
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (index: number, choice: Choice) => setChoices((all) => ({ ...all, [index]: choice }));
  const unmatched = review.items.filter((i) => !i.match).length;

  const submit = async () => {
    setTried(true);
    if (review.items.some((i) => problemOf(choices[i.index]) || 'error' in factorOf(factors[i.index])))
      return;
    setError(null);
    try {
      await onEntry(
        review.items.map((i) => {
          const factor = factorOf(factors[i.index]);
          return { ...toEntryItem(i.index, choices[i.index]), ...('factor' in factor ? factor : {}) };
        }),
      );
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const billsOnly = async () => {
    setError(null);
    try {
      await onBillsOnly();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="md" fullScreen={fullScreen}>
      <DialogTitle>
        NF-e {review.number} - {review.supplier.name}
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {`Emitida em ${formatDate(`${review.issuedOn}T12:00:00Z`)}, total ${formatCents(review.totalCents)}${review.supplier.id ? '' : ' (fornecedor novo: será cadastrado)'}`}
          </Typography>
          <Typography variant="body2" data-testid="nfe-bills">
            {`${review.bills.length === 1 ? 'Conta a pagar' : `${review.bills.length} contas a pagar`}: ${review.bills
              .map((b) => `${formatDate(`${b.dueDate}T12:00:00Z`)} ${formatCents(b.amountCents)}`)
              .join('; ')}`}
          </Typography>
          {unmatched > 0 && (
            <Alert severity="info">
              {unmatched === 1
                ? '1 item não foi encontrado no seu cadastro: cadastre-o como produto novo ou vincule a um produto.'
                : `${unmatched} itens não foram encontrados no seu cadastro: cadastre-os como produtos novos ou vincule a produtos.`}
            </Alert>
          )}
          {review.items.map((item) => {
            const choice = choices[item.index];
            const problem = tried ? problemOf(choice) : null;
            const typed = factors[item.index];
            const factor = factorOf(typed);
            return (
              <Paper
                key={item.index}
                variant="outlined"
                sx={{ p: 1.5 }}
                component="section"
                aria-label={`Item ${item.index}: ${item.description}`}
              >
                <Stack spacing={1}>
                  <Stack
                    direction={{ xs: 'column', sm: 'row' }}
                    spacing={0.5}
                    sx={{ justifyContent: 'space-between' }}
                  >
                    <Typography variant="subtitle2">
                      {item.index}. {item.description}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {`${formatQuantity(item.quantity)} ${item.unit.toLowerCase()} x ${formatCents(item.unitCostCents)} = ${formatCents(item.totalCents)}`}
                    </Typography>
                  </Stack>
                  <Typography variant="caption" color="text.secondary">
                    {`Código do fornecedor ${item.code || '-'}${item.barcode ? ` · EAN ${item.barcode}` : ''}`}
                  </Typography>
                  {choice.kind === 'variant' ? (
                    <Stack
                      direction={{ xs: 'column', sm: 'row' }}
                      spacing={1}
                      useFlexGap
                      sx={{ alignItems: { sm: 'center' } }}
                    >
                      <Typography variant="body2">
                        Entra em <strong>{choice.name}</strong>, na variação:
                      </Typography>
                      <VariantSelect
                        productId={choice.productId}
                        label={`Variação do item ${item.index}`}
                        error={problem}
                        onChange={(v) =>
                          set(item.index, {
                            kind: 'match',
                            productId: choice.productId,
                            variantId: v.id,
                            name: `${choice.name} - ${v.name}`,
                            by: 'hand',
                          })
                        }
                      />
                      <Button size="small" onClick={() => set(item.index, { kind: 'pick', product: null })}>
                        Trocar
                      </Button>
                    </Stack>
                  ) : choice.kind === 'match' ? (
                    <Stack
                      direction="row"
                      spacing={1}
                      useFlexGap
                      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                    >
                      <Typography variant="body2">
                        Entra em <strong>{choice.name}</strong>
                      </Typography>
                      <Chip size="small" label={BY_LABEL[choice.by]} />
                      <Button size="small" onClick={() => set(item.index, { kind: 'pick', product: null })}>
                        Trocar
                      </Button>
                    </Stack>
                  ) : (
                    <>
                      <ToggleButtonGroup
                        size="small"
                        exclusive
                        value={choice.kind}
                        aria-label={`O que fazer com o item ${item.index}`}
                        onChange={(_, kind) => {
                          if (kind === 'new') set(item.index, initialChoice({ ...item, match: null }));
                          if (kind === 'pick') set(item.index, { kind: 'pick', product: null });
                        }}
                      >
                        <ToggleButton value="new">Cadastrar produto novo</ToggleButton>
                        <ToggleButton value="pick">Vincular a um produto</ToggleButton>
                      </ToggleButtonGroup>
                      {choice.kind === 'pick' ? (
                        <ProductSearch
                          clientId={clientId}
                          label={`Produto do item ${item.index}`}
                          value={choice.product}
                          error={problem}
                          onChange={(product) =>
                            set(
                              item.index,
                              product && (product.variantCount > 0 || product.productType === 'variants')
                                ? { kind: 'variant', productId: product.id, name: product.name }
                                : product
                                  ? {
                                      kind: 'match',
                                      productId: product.id,
                                      variantId: null,
                                      name: product.name,
                                      by: 'hand',
                                    }
                                  : { kind: 'pick', product: null },
                            )
                          }
                        />
                      ) : (
                        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                          <TextField
                            size="small"
                            label={`Nome do produto (item ${item.index})`}
                            value={choice.name}
                            onChange={(e) => set(item.index, { ...choice, name: e.target.value })}
                            error={tried && !choice.name.trim()}
                            sx={{ flex: 2 }}
                          />
                          <TextField
                            select
                            size="small"
                            label={`Categoria (item ${item.index})`}
                            value={choice.categoryId}
                            onChange={(e) =>
                              set(item.index, {
                                ...choice,
                                categoryId: e.target.value === '' ? '' : Number(e.target.value),
                              })
                            }
                            sx={{ flex: 1, minWidth: 140 }}
                          >
                            <MenuItem value="">Sem categoria</MenuItem>
                            {(categories.data ?? []).map((c) => (
                              <MenuItem key={c.id} value={c.id}>
                                {c.name}
                              </MenuItem>
                            ))}
                          </TextField>
                          <MoneyField
                            size="small"
                            label={`Preço de venda (item ${item.index})`}
                            value={choice.price}
                            onChange={(price) => set(item.index, { ...choice, price })}
                            error={Boolean(problem && choice.name.trim())}
                            helperText={problem && choice.name.trim() ? problem : undefined}
                            sx={{ flex: 1, minWidth: 140 }}
                          />
                        </Stack>
                      )}
                    </>
                  )}
                  <Stack
                    direction={{ xs: 'column', sm: 'row' }}
                    spacing={1}
                    useFlexGap
                    sx={{ alignItems: { sm: 'center' } }}
                  >
                    <TextField
                      size="small"
                      label={`Unidades do produto por ${item.unit.toUpperCase()} (item ${item.index})`}
                      value={typed}
                      onChange={(e) => setFactors((all) => ({ ...all, [item.index]: e.target.value }))}
                      error={'error' in factor}
                      helperText={'error' in factor ? factor.error : undefined}
                      slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                      sx={{ width: { sm: 260 } }}
                    />
                    {'factor' in factor && (
                      <Typography
                        variant="body2"
                        color="text.secondary"
                        data-testid={`nfe-stock-${item.index}`}
                      >
                        {conversionText(item, factor.factor, typed)}
                      </Typography>
                    )}
                  </Stack>
                </Stack>
              </Paper>
            );
          })}
          {!canEnterStock && (
            <Alert severity="warning">
              Seu perfil não dá entrada no estoque: gere só as contas a pagar ou peça a um gerente.
            </Alert>
          )}
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={busy}>
          Cancelar
        </Button>
        <Button variant="outlined" onClick={billsOnly} disabled={busy}>
          Só gerar as contas a pagar
        </Button>
        {canEnterStock && (
          <Button variant="contained" onClick={submit} disabled={busy}>
            Dar entrada no estoque
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
