import {
  centsToMoneyInput,
  formatQuantity,
  marginPercent,
  moneyInputToCents,
  numberToQuantityInput,
  PRODUCT_TYPE_LABELS,
  PRODUCT_TYPES,
  PRODUCT_UNIT_LABELS,
  PRODUCT_UNITS,
  type Product,
  type ProductFormValues,
  type ProductInputParsed,
  productFormSchema,
} from '@balcao/core/product';
import { can, WRITE } from '@balcao/core/routes';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type Feedback, FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  FormMoneyField,
  FormQuantityField,
  FormSwitch,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { useHandedOverMessage } from '../../components/listPage.tsx';
import { RecordFormCard, RecordFormPage, useEditId } from '../../components/RecordFormPage.tsx';
import { useSession } from '../auth/index.ts';
import { ProductFiscalSection } from '../fiscal/index.ts';
import { useNamedOptions } from '../product-category/index.ts';
import { useCreateProduct, useProduct, useUpdateProduct } from './api.ts';
import { AdditionalsField } from './components/AdditionalsField.tsx';
import { COLOR_SUGGESTIONS, GridNamesInput, SIZE_SUGGESTIONS } from './components/GridNamesInput.tsx';
import { ImagesSection } from './components/ImagesSection.tsx';
import { ProductStockCard } from './components/ProductStockCard.tsx';
import { VariantsSection } from './components/VariantsSection.tsx';

const LIST = '/dashboard/product';

/** Product form at /dashboard/product/new and /dashboard/product/edit/{id}. */
export default function ProductFormPage() {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.catalog);
  // Issue 32: the NFC-e fields are the fiscal setup's (the Administrador's).
  const canFiscal = can(user?.userType.id, WRITE.system);
  const { state, show, close } = useFeedback();
  useHandedOverMessage(show);

  const edit = useEditId(LIST);
  const product = useProduct(edit.id);
  return (
    <RecordFormPage
      edit={edit}
      record={product}
      title={['Novo produto', 'Editar produto']}
      notFound="Produto não encontrado"
      maxWidth={1100}
      after={<FeedbackSnackbar state={state} onClose={close} />}
    >
      {(p) => (
        <Stack sx={{ gap: 3 }}>
          <ProductForm key={p?.updatedAt ?? ''} product={p} canWrite={canWrite} onFeedback={show} />
          {p && canFiscal && <ProductFiscalSection productId={p.id} onFeedback={show} />}
          {p && <ImagesSection product={p} canWrite={canWrite} onFeedback={show} />}
          {p?.productType === 'variants' && (
            <VariantsSection product={p} canWrite={canWrite} onFeedback={show} />
          )}
          {p && <ProductStockCard productId={p.id} stockControl={p.stockControl} />}
        </Stack>
      )}
    </RecordFormPage>
  );
}

function toFormValues(p?: Product): ProductFormValues {
  return {
    name: p?.name ?? '',
    description: p?.description ?? '',
    sku: p?.sku ?? '',
    barcode: p?.barcode ?? '',
    scaleCode: p?.scaleCode ?? '',
    productType: p?.productType ?? 'simple',
    unit: p?.unit ?? 'un',
    salePriceCents: p ? centsToMoneyInput(p.salePriceCents) : '',
    costPriceCents: p ? centsToMoneyInput(p.costPriceCents) : '',
    categoryId: p?.category?.id ?? null,
    brandId: p?.brand?.id ?? null,
    active: p?.active ?? true,
    stockControl: p?.stockControl ?? true,
    stock: p ? numberToQuantityInput(p.stock) : '',
    minStock: p ? numberToQuantityInput(p.minStock || null) : '',
    weightKg: numberToQuantityInput(p?.weightKg),
    heightCm: numberToQuantityInput(p?.heightCm),
    widthCm: numberToQuantityInput(p?.widthCm),
    lengthCm: numberToQuantityInput(p?.lengthCm),
    additionalGroupIds: p?.additionalGroups.map((g) => g.id) ?? [],
    colors: p?.colors.map((c) => c.name) ?? [],
    sizes: p?.sizes.map((s) => s.name) ?? [],
  };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="h6" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

const grid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' },
} as const;

function ProductForm({
  product,
  canWrite,
  onFeedback,
}: {
  product?: Product;
  canWrite: boolean;
  onFeedback: (f: Feedback) => void;
}) {
  const navigate = useNavigate();
  const { user } = useSession();
  const clientId = user?.client.id;
  const categories = useNamedOptions('product-category', clientId);
  const brands = useNamedOptions('product-brand', clientId);
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const form = useAppForm<ProductFormValues, ProductInputParsed>({
    schema: productFormSchema,
    defaultValues: toFormValues(product),
    // The piped API schema reports grid problems at grid.colors / grid.sizes.
    fieldOf: { grid: 'colors', 'grid.colors': 'colors', 'grid.sizes': 'sizes' },
  });
  const { control, formState } = form;
  const errors = formState.errors;
  const [productType, unit, sale, cost, stockControl] = useWatch({
    control,
    name: ['productType', 'unit', 'salePriceCents', 'costPriceCents', 'stockControl'],
  });
  const margin = marginPercent(moneyInputToCents(sale) ?? 0, moneyInputToCents(cost) ?? 0);
  const locked = !canWrite;
  const gridError = errors.colors?.message ?? errors.sizes?.message;
  const hasVariants = (product?.variants.length ?? 0) > 0;

  useEffect(() => {
    if (productType === 'weighed' && unit !== 'kg' && unit !== 'g') form.setValue('unit', 'kg');
    if (productType === 'service' && stockControl) form.setValue('stockControl', false);
    // Issue 36: only a product sold by kg has a scale code (the field hides; the API refuses one).
    if (unit !== 'kg' && form.getValues('scaleCode')) form.setValue('scaleCode', '');
  }, [productType, unit, stockControl, form]);

  const submit = async (values: ProductInputParsed) => {
    if (product) {
      const { grid: _grid, stock, ...rest } = values;
      // Stock goes only when the user changed it: a stale form never rewrites a level a sale changed.
      const sendStock = values.stock !== product.stock && values.productType !== 'variants';
      await update.mutateAsync({
        params: { id: product.id },
        body: { ...rest, ...(sendStock ? { stock } : {}), updatedAt: product.updatedAt },
      });
      onFeedback({ severity: 'success', title: 'Produto editado com sucesso' });
    } else {
      const saved = await create.mutateAsync({ body: values });
      navigate(`${LIST}/edit/${saved.id}`, {
        replace: true,
        state: { message: 'Produto criado com sucesso' },
      });
    }
  };

  const quantity = (
    name: 'stock' | 'minStock' | 'weightKg' | 'heightCm' | 'widthCm' | 'lengthCm',
    label: string,
    suffix: string,
    options: { places?: number; disabled?: boolean; help?: string } = {},
  ) => (
    <FormQuantityField
      control={control}
      name={name}
      label={label}
      suffix={suffix}
      places={options.places ?? 3}
      disabled={locked || options.disabled}
      helperText={options.help}
    />
  );

  const select = (
    name: 'categoryId' | 'brandId',
    label: string,
    options: { id: number; name: string }[] | undefined,
    none: string,
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          label={label}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          value={field.value ?? ''}
          onChange={(e) => field.onChange(e.target.value === '' ? null : Number(e.target.value))}
          onBlur={field.onBlur}
          inputRef={field.ref}
          disabled={locked}
          error={!!fieldState.error}
          helperText={fieldState.error?.message}
        >
          <MenuItem value="">{none}</MenuItem>
          {(options ?? []).map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <RecordFormCard
      form={form}
      onSubmit={submit}
      onFeedback={onFeedback}
      errorTitle={product ? 'Erro ao editar produto' : 'Erro ao criar produto'}
      label="Produto"
      canWrite={canWrite}
      readOnlyNote="Você pode ver este produto, mas não alterá-lo."
      list={LIST}
      submit={<SubmitButton busyLabel="Salvando...">{product ? 'Salvar' : 'Cadastrar'}</SubmitButton>}
    >
      <Stack sx={{ gap: 4 }}>
        <Section title="Dados do produto">
          <Box sx={grid}>
            <Box sx={{ gridColumn: { sm: 'span 2' } }}>
              <FormTextField
                control={control}
                name="name"
                label="Nome"
                required
                autoFocus={!product}
                disabled={locked}
                slotProps={{ htmlInput: { maxLength: 120 } }}
              />
            </Box>
            <Controller
              control={control}
              name="productType"
              render={({ field }) => (
                <TextField
                  select
                  label="Tipo"
                  {...field}
                  disabled={locked || hasVariants}
                  helperText={hasVariants ? 'Exclua a grade para mudar o tipo' : errors.productType?.message}
                  // The reason the field is locked is read, not disabled: full contrast (issue 30, axe).
                  slotProps={{ formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } } }}
                >
                  {PRODUCT_TYPES.map((t) => (
                    <MenuItem key={t} value={t}>
                      {PRODUCT_TYPE_LABELS[t]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Controller
              control={control}
              name="unit"
              render={({ field }) => (
                <TextField
                  select
                  label="Unidade"
                  {...field}
                  disabled={locked}
                  error={!!errors.unit}
                  helperText={errors.unit?.message}
                >
                  {PRODUCT_UNITS.map((u) => (
                    <MenuItem key={u} value={u}>
                      {PRODUCT_UNIT_LABELS[u]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <FormTextField
              control={control}
              name="sku"
              label="SKU"
              disabled={locked}
              helperText="Código interno (único)"
              slotProps={{ htmlInput: { maxLength: 60 } }}
            />
            <FormTextField
              control={control}
              name="barcode"
              label="Código de barras"
              disabled={locked}
              helperText="EAN-8, EAN-13 ou GTIN-14"
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 18 } }}
            />
            {unit === 'kg' && (
              <FormTextField
                control={control}
                name="scaleCode"
                label="Código na balança"
                disabled={locked}
                helperText="O código do produto na etiqueta de peso (1 a 6 dígitos)"
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
              />
            )}
            {select('categoryId', 'Categoria', categories.data, 'Sem categoria')}
            {select('brandId', 'Marca', brands.data, 'Sem marca')}
            <Box sx={{ gridColumn: { sm: 'span 2', md: 'span 4' } }}>
              <FormTextField
                control={control}
                name="description"
                label="Descrição"
                multiline
                minRows={2}
                disabled={locked}
              />
            </Box>
            <FormSwitch control={control} name="active" label="Ativo" disabled={locked} />
          </Box>
        </Section>

        <Section title="Preços">
          <Box sx={grid}>
            <FormMoneyField
              control={control}
              name="salePriceCents"
              label="Preço de venda"
              required
              disabled={locked}
            />
            <FormMoneyField
              control={control}
              name="costPriceCents"
              label="Preço de custo"
              disabled={locked}
            />
            <Box sx={{ display: 'flex', alignItems: 'center' }}>
              <Typography data-testid="margin">
                Margem:{' '}
                <b>
                  {margin === null ? '—' : `${margin.toLocaleString('pt-BR', { maximumFractionDigits: 2 })}%`}
                </b>
              </Typography>
            </Box>
          </Box>
        </Section>

        <Section title="Estoque">
          <Box sx={grid}>
            <FormSwitch
              control={control}
              name="stockControl"
              label="Controlar estoque"
              disabled={locked || productType === 'service'}
            />
            {productType === 'variants' && product ? (
              <Typography sx={{ alignSelf: 'center' }}>
                Estoque: <b>{formatQuantity(product.stock, product.unit)}</b> (soma das variações)
              </Typography>
            ) : (
              quantity('stock', product ? 'Estoque' : 'Estoque inicial', unit, {
                disabled: !stockControl || productType === 'variants',
                help: productType === 'variants' ? 'Informe o estoque de cada variação na grade' : undefined,
              })
            )}
            {quantity('minStock', 'Estoque mínimo', unit, {
              disabled: !stockControl,
              help: 'Avisa quando o estoque chegar a este valor',
            })}
          </Box>
        </Section>

        {productType === 'variants' && !product && (
          <Section title="Grade (cores e tamanhos)">
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              Uma variação para cada combinação. Depois de cadastrar, edite preço, código de barras e estoque
              de cada uma.
            </Typography>
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
              <Controller
                control={control}
                name="colors"
                render={({ field }) => (
                  <GridNamesInput
                    label="Cores"
                    value={field.value}
                    onChange={field.onChange}
                    suggestions={COLOR_SUGGESTIONS}
                    error={!!gridError}
                  />
                )}
              />
              <Controller
                control={control}
                name="sizes"
                render={({ field }) => (
                  <GridNamesInput
                    label="Tamanhos"
                    value={field.value}
                    onChange={field.onChange}
                    suggestions={SIZE_SUGGESTIONS}
                    error={!!gridError}
                    helperText={gridError}
                  />
                )}
              />
            </Box>
          </Section>
        )}

        <Section title="Peso e dimensões (frete)">
          <Box sx={grid}>
            {quantity('weightKg', 'Peso', 'kg')}
            {quantity('heightCm', 'Altura', 'cm', { places: 2 })}
            {quantity('widthCm', 'Largura', 'cm', { places: 2 })}
            {quantity('lengthCm', 'Comprimento', 'cm', { places: 2 })}
          </Box>
        </Section>

        <Section title="Adicionais">
          <Controller
            control={control}
            name="additionalGroupIds"
            render={({ field }) => (
              <AdditionalsField
                clientId={clientId}
                value={field.value}
                onChange={field.onChange}
                canWrite={canWrite}
              />
            )}
          />
        </Section>
      </Stack>
    </RecordFormCard>
  );
}
