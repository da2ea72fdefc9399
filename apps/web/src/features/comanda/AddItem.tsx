import { type ComandaLineInput, comandaLineInputSchema } from '@balcao/core/comanda';
import { formatCents } from '@balcao/core/money';
import type { Product, ProductListItem } from '@balcao/core/product';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useDebouncedValue } from '../../lib/useDebouncedValue.ts';
import { type ProductChoice, ProductOptionsDialog } from '../checkout/index.ts';
import { isOffline, type LocalCatalog } from '../offline/index.ts';
import { searchProducts } from '../product/index.ts';
import { fetchByBarcode, fetchProductDetail } from '../sale/index.ts';
import { useMenu } from './api.ts';

type Picked = { product: Product; choice: ProductChoice };
type Hit = Pick<ProductListItem, 'id' | 'name' | 'salePriceCents'>;

/** No answer from the server (offline, or the Wi-Fi gone while the phone thinks it is online). */
const noConnection = (error: unknown) => error instanceof ApiError && error.status === 0;
export type AddedLine = ComandaLineInput & { description: string };

/**
 * Adding to a tab, touch first: favourites and categories, then search (name, SKU or a scanned
 * barcode), the product's options (variants, add-ons: the PDV's dialog), quantity and a note.
 * `onAdd` receives ONE line (the tab page sends it at once; the waiter PDV queues it).
 * `catalog` (the waiter PDV's local copy, issue 30): without a connection the search, the category
 * chips and the product's options come from it, so a required choice is asked offline as online.
 */
export function AddItem({
  clientId,
  onAdd,
  catalog,
}: {
  clientId: number;
  onAdd: (line: AddedLine) => Promise<void> | void;
  catalog?: LocalCatalog;
}) {
  const menu = useMenu();
  const [text, setText] = useState('');
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [results, setResults] = useState<Hit[]>([]);
  const [options, setOptions] = useState<Product | null>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const q = useDebouncedValue(text.trim(), 250);

  useEffect(() => {
    if (q.length < 2 && categoryId === null) {
      setResults([]);
      return;
    }
    if (/^\d{8,14}$/.test(q)) return; // a barcode: looked up on Enter
    const controller = new AbortController();
    const search = q.length >= 2;
    const local = async (): Promise<Hit[]> => {
      if (!catalog) return [];
      return search ? catalog.search(q, 30) : catalog.inCategory(categoryId ?? 0, 30);
    };
    (catalog && isOffline()
      ? local()
      : searchProducts(clientId, search ? q : '', controller.signal, {
          pageSize: 30,
          categoryId: search ? undefined : (categoryId ?? undefined),
        }).then(
          (page): Hit[] => page.items,
          (error) => {
            if (!noConnection(error)) throw error;
            return local();
          },
        )
    )
      .then((items) => {
        if (!controller.signal.aborted) setResults(items);
      })
      .catch(() => null);
    return () => controller.abort();
  }, [clientId, q, categoryId, catalog]);

  const choose = async (productId: number) => {
    setMessage(null);
    try {
      let product: Product | undefined;
      try {
        product = catalog && isOffline() ? undefined : await fetchProductDetail(productId);
      } catch (error) {
        if (!catalog || !noConnection(error)) throw error;
      }
      // Offline: the product as the local copy has it, with its variants and add-on groups, so its
      // required choices are asked here as online (issue 30: never a line the server refuses later).
      product ??= await catalog?.get(productId);
      if (!product) {
        setMessage(
          'Sem conexão, e este produto não está na cópia deste aparelho. Tente quando a conexão voltar.',
        );
        return;
      }
      const needsOptions =
        product.variants.some((v) => v.active) ||
        product.additionalGroups.some((g) => g.active && g.items.length);
      if (needsOptions) setOptions(product);
      else setPicked({ product, choice: { variant: null, additionals: [] } });
    } catch (error) {
      setMessage(errorMessage(error));
    }
  };

  const byBarcode = async () => {
    if (!/^\d{8,14}$/.test(text.trim())) return;
    try {
      const code = text.trim();
      const local = async () => {
        const found = await catalog?.byCode(code);
        if (!found) throw new ApiError(404, 'Nenhum produto com este código de barras');
        return found;
      };
      const match = await (catalog && isOffline()
        ? local()
        : fetchByBarcode(code).catch((error) => {
            if (!catalog || !noConnection(error)) throw error;
            return local();
          }));
      setText('');
      if (match.variant) {
        setPicked({ product: match.product, choice: { variant: match.variant, additionals: [] } });
      } else await choose(match.product.id);
    } catch (error) {
      setMessage(errorMessage(error));
    }
  };

  const favourites = menu.data?.favourites ?? [];
  const categories = menu.data?.categories ?? [];
  return (
    <Stack sx={{ gap: 1.5 }}>
      {message && (
        <Alert severity="error" onClose={() => setMessage(null)}>
          {message}
        </Alert>
      )}
      {picked ? (
        <Draft
          picked={picked}
          onAdd={async (line) => {
            await onAdd(line);
            setPicked(null);
            setText('');
          }}
          onBack={() => setPicked(null)}
        />
      ) : (
        <>
          {favourites.length > 0 && (
            <Box>
              <Typography variant="overline">Favoritos</Typography>
              <Box
                sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))' }}
              >
                {favourites.map((f) => (
                  <Button
                    key={f.productId}
                    variant="outlined"
                    onClick={() => choose(f.productId)}
                    sx={{
                      flexDirection: 'column',
                      alignItems: 'flex-start',
                      textTransform: 'none',
                      minHeight: 56,
                      lineHeight: 1.25,
                    }}
                  >
                    <Box component="span" sx={{ textAlign: 'left' }}>
                      {f.description}
                    </Box>
                    <Box component="span" sx={{ typography: 'caption', color: 'text.secondary' }}>
                      {formatCents(f.unitPriceCents)}
                    </Box>
                  </Button>
                ))}
              </Box>
            </Box>
          )}
          <TextField
            fullWidth
            label="Buscar produto"
            placeholder="Nome, SKU ou código de barras"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setCategoryId(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                if (/^\d{8,14}$/.test(text.trim())) void byBarcode();
                else if (results[0]) void choose(results[0].id);
              }
            }}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon />
                  </InputAdornment>
                ),
              },
            }}
          />
          {categories.length > 0 && (
            <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
              {categories.map((c) => (
                <Chip
                  key={c.id}
                  label={c.name}
                  color={categoryId === c.id ? 'primary' : 'default'}
                  onClick={() => {
                    setText('');
                    setCategoryId(categoryId === c.id ? null : c.id);
                  }}
                  sx={{ minHeight: 40, fontSize: 15 }}
                />
              ))}
            </Stack>
          )}
          {results.length > 0 && (
            <Paper variant="outlined">
              <List dense disablePadding aria-label="Produtos encontrados">
                {results.map((p) => (
                  <ListItem key={p.id} disablePadding>
                    <ListItemButton onClick={() => choose(p.id)} sx={{ minHeight: 48 }}>
                      <ListItemText primary={p.name} secondary={formatCents(p.salePriceCents)} />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            </Paper>
          )}
        </>
      )}
      <ProductOptionsDialog
        product={options}
        variant={null}
        onClose={() => setOptions(null)}
        onChoose={(choice) => {
          if (options) setPicked({ product: options, choice });
          setOptions(null);
        }}
      />
    </Stack>
  );
}

type DraftValues = { quantity: number; notes: string };

/**
 * The picked product's line: quantity (1 to 99 by the buttons) and a note, checked by core's line
 * schema before `onAdd`; a refused add puts its issues under the note or above the buttons.
 */
function Draft({
  picked,
  onAdd,
  onBack,
}: {
  picked: Picked;
  onAdd: (line: AddedLine) => Promise<void>;
  onBack: () => void;
}) {
  const { product, choice } = picked;
  const form = useAppForm<DraftValues, ComandaLineInput>({
    schema: comandaLineInputSchema,
    defaultValues: { quantity: 1, notes: '' },
    toInput: (v) => ({
      productId: product.id,
      variantId: choice.variant?.id ?? null,
      quantity: v.quantity,
      additionals: choice.additionals.map((a) => ({ id: a.id, quantity: a.quantity })),
      notes: v.notes,
    }),
    // Only the note is a field; the quantity (shown, not typed), product and options speak above the buttons.
    fieldOf: (path) => (path === 'notes' ? path : ''),
  });
  const quantity = useWatch({ control: form.control, name: 'quantity' });
  const step = (by: number) => form.setValue('quantity', Math.min(99, Math.max(1, quantity + by)));
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="add-item-draft">
      <Form
        form={form}
        aria-label={`Adicionar ${product.name}`}
        onSubmit={(line) => onAdd({ ...line, description: product.name })}
      >
        <Typography sx={{ fontWeight: 600 }}>
          {product.name}
          {choice.variant
            ? ` (${[choice.variant.color, choice.variant.size].filter(Boolean).join(' ')})`
            : ''}
        </Typography>
        {choice.additionals.length > 0 && (
          <Typography variant="body2" color="text.secondary">
            + {choice.additionals.map((a) => a.name).join(', ')}
          </Typography>
        )}
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, my: 1 }}>
          <IconButton aria-label="Menos" onClick={() => step(-1)} size="large">
            <RemoveIcon />
          </IconButton>
          <Typography variant="h6" aria-label="Quantidade" sx={{ minWidth: 32, textAlign: 'center' }}>
            {quantity}
          </Typography>
          <IconButton aria-label="Mais" onClick={() => step(1)} size="large">
            <AddIcon />
          </IconButton>
        </Stack>
        <FormTextField
          control={form.control}
          name="notes"
          label="Observação"
          placeholder="sem cebola"
          mask={(text) => text.slice(0, 200)}
        />
        <Box sx={{ '&:has(.MuiAlert-root)': { mt: 1.5 } }}>
          <FormError />
        </Box>
        <Stack direction="row" sx={{ gap: 1, mt: 1.5 }}>
          <SubmitButton size="large" busyLabel="Adicionar" sx={{ flex: 1 }}>
            Adicionar
          </SubmitButton>
          <Button size="large" onClick={onBack}>
            Voltar
          </Button>
        </Stack>
      </Form>
    </Paper>
  );
}
