import {
  centsToMoneyInput,
  moneyInputToCents,
  numberToQuantityInput,
  type Product,
  type ProductVariant,
  productVariantUpdateSchema,
  quantityInputToNumber,
} from '@balcao/core/product';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import type { Feedback } from '../../../components/FeedbackSnackbar.tsx';
import {
  FormMoneyField,
  FormQuantityField,
  FormTextField,
  showServerError,
  useAppForm,
} from '../../../components/form.tsx';
import { ListTable } from '../../../components/listPage.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useClearGrid, useSetGrid, useUpdateVariant } from '../api.ts';
import { COLOR_SUGGESTIONS, GridNamesInput, SIZE_SUGGESTIONS } from './GridNamesInput.tsx';

/** Grade of an existing product: choose colours and sizes, generate, then edit each variant. */
export function VariantsSection({
  product,
  canWrite,
  onFeedback,
}: {
  product: Product;
  canWrite: boolean;
  onFeedback: (f: Feedback) => void;
}) {
  const [colors, setColors] = useState(product.colors.map((c) => c.name));
  const [sizes, setSizes] = useState(product.sizes.map((s) => s.name));
  const [confirmClear, setConfirmClear] = useState(false);
  const setGrid = useSetGrid();
  const clearGrid = useClearGrid();
  const unchanged =
    colors.join('\n') === product.colors.map((c) => c.name).join('\n') &&
    sizes.join('\n') === product.sizes.map((s) => s.name).join('\n');

  const generate = () =>
    setGrid.mutate(
      { params: { id: product.id }, body: { colors, sizes } },
      {
        onSuccess: (p) =>
          onFeedback({
            severity: 'success',
            title: `Grade gerada: ${p.variants.length} ${p.variants.length === 1 ? 'variação' : 'variações'}`,
          }),
        onError: (error) =>
          onFeedback({ severity: 'error', title: 'Erro ao gerar a grade', message: errorMessage(error) }),
      },
    );

  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-label="Grade de variações">
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Grade (cores e tamanhos)
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Uma variação para cada combinação de cor e tamanho. Ao gerar de novo, as combinações que continuam
        mantêm SKU, código de barras, preço e estoque.
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <GridNamesInput
          label="Cores"
          value={colors}
          onChange={setColors}
          suggestions={COLOR_SUGGESTIONS}
          disabled={!canWrite}
        />
        <GridNamesInput
          label="Tamanhos"
          value={sizes}
          onChange={setSizes}
          suggestions={SIZE_SUGGESTIONS}
          disabled={!canWrite}
        />
      </Box>
      {canWrite && (
        <Stack direction="row" sx={{ gap: 1, mt: 2, justifyContent: 'flex-end' }}>
          {product.variants.length > 0 && (
            <Button color="error" onClick={() => setConfirmClear(true)} disabled={clearGrid.isPending}>
              Excluir grade
            </Button>
          )}
          <Button
            variant="contained"
            onClick={generate}
            disabled={
              setGrid.isPending ||
              colors.length + sizes.length === 0 ||
              (unchanged && product.variants.length > 0)
            }
          >
            {setGrid.isPending ? 'Gerando...' : 'Gerar grade'}
          </Button>
        </Stack>
      )}
      {product.variants.length > 0 ? (
        <ListTable
          label="Variações"
          head={['Variação', 'SKU', 'Código de barras', 'Preço (vazio = do produto)', 'Estoque', 'Ativa', '']}
          sx={{ mt: 2 }}
        >
          {product.variants.map((v) => (
            <VariantRow
              key={`${v.id}:${v.updatedAt}`}
              variant={v}
              product={product}
              canWrite={canWrite}
              onFeedback={onFeedback}
            />
          ))}
        </ListTable>
      ) : (
        <Alert severity="info" sx={{ mt: 2 }}>
          Nenhuma variação ainda: informe cores e/ou tamanhos e clique em Gerar grade.
        </Alert>
      )}
      <ConfirmDialog
        open={confirmClear}
        title="Excluir a grade?"
        message="Todas as cores, tamanhos e variações deste produto serão excluídos."
        confirmLabel="Excluir"
        destructive
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => {
          setConfirmClear(false);
          clearGrid.mutate(
            { params: { id: product.id } },
            {
              onSuccess: () => {
                setColors([]);
                setSizes([]);
                onFeedback({ severity: 'success', title: 'Grade excluída' });
              },
              onError: (error) =>
                onFeedback({
                  severity: 'error',
                  title: 'Erro ao excluir a grade',
                  message: errorMessage(error),
                }),
            },
          );
        }}
      />
    </Paper>
  );
}

type VariantValues = { sku: string; barcode: string; price: string; stock: string; active: boolean };

/**
 * One variant, edited in its table row. A row cannot hold a form element, so the form kit runs
 * without one: its Salvar validates, saves and maps the server's issues like any form.
 */
function VariantRow({
  variant,
  product,
  canWrite,
  onFeedback,
}: {
  variant: ProductVariant;
  product: Product;
  canWrite: boolean;
  onFeedback: (f: Feedback) => void;
}) {
  const initialStock = numberToQuantityInput(variant.stock);
  const form = useAppForm({
    schema: productVariantUpdateSchema,
    defaultValues: {
      sku: variant.sku ?? '',
      barcode: variant.barcode ?? '',
      price: centsToMoneyInput(variant.priceCents),
      stock: initialStock,
      active: variant.active,
    } as VariantValues,
    toInput: (values: VariantValues) => ({
      sku: values.sku,
      barcode: values.barcode,
      priceCents: values.price.trim() === '' ? null : moneyInputToCents(values.price),
      // Stock goes only when the user changed it: a stale row never rewrites a level a sale changed.
      stock: values.stock !== initialStock ? (quantityInputToNumber(values.stock) ?? 0) : undefined,
      active: values.active,
      updatedAt: variant.updatedAt,
    }),
    fieldOf: { priceCents: 'price' },
  });
  const { control, formState } = form;
  const update = useUpdateVariant();

  const save = form.handleSubmit(async (body) => {
    try {
      await update.mutateAsync({ params: { id: variant.id }, body });
      form.reset(form.getValues());
      onFeedback({ severity: 'success', title: `Variação ${variant.name} salva` });
    } catch (error) {
      const message = showServerError(form, error);
      onFeedback({ severity: 'error', title: `Erro ao salvar ${variant.name}`, message });
    }
  });

  const label = (field: string) => `${field} de ${variant.name}`;
  return (
    <TableRow data-testid="variant-row">
      <TableCell sx={{ whiteSpace: 'nowrap', fontWeight: 500 }}>{variant.name}</TableCell>
      <TableCell sx={{ minWidth: 190 }}>
        <FormTextField
          control={control}
          name="sku"
          size="small"
          disabled={!canWrite}
          slotProps={{ htmlInput: { 'aria-label': label('SKU'), maxLength: 60 } }}
        />
      </TableCell>
      <TableCell sx={{ minWidth: 160 }}>
        <FormTextField
          control={control}
          name="barcode"
          size="small"
          fullWidth={false}
          mask={(text) => text.replace(/[^\d]/g, '')}
          disabled={!canWrite}
          slotProps={{
            htmlInput: { 'aria-label': label('Código de barras'), inputMode: 'numeric', maxLength: 14 },
          }}
        />
      </TableCell>
      <TableCell sx={{ minWidth: 130 }}>
        <FormMoneyField
          control={control}
          name="price"
          size="small"
          placeholder={centsToMoneyInput(product.salePriceCents)}
          disabled={!canWrite}
          slotProps={{ htmlInput: { 'aria-label': label('Preço') } }}
        />
      </TableCell>
      <TableCell sx={{ minWidth: 110 }}>
        <FormQuantityField
          control={control}
          name="stock"
          size="small"
          suffix={product.unit}
          disabled={!canWrite || !product.stockControl}
          slotProps={{ htmlInput: { 'aria-label': label('Estoque') } }}
        />
      </TableCell>
      <TableCell>
        <Controller
          control={control}
          name="active"
          render={({ field }) => (
            <Switch
              checked={field.value}
              onChange={(e) => field.onChange(e.target.checked)}
              disabled={!canWrite}
              slotProps={{ input: { 'aria-label': label('Ativa') } }}
            />
          )}
        />
      </TableCell>
      <TableCell>
        {canWrite && (
          <Button
            size="small"
            variant="outlined"
            onClick={save}
            disabled={!formState.isDirty || formState.isSubmitting}
          >
            {formState.isSubmitting ? 'Salvando...' : 'Salvar'}
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}
