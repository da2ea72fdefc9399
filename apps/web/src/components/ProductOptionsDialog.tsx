import { formatCents } from '@balcao/core/money';
import type { Product, ProductAdditionalGroup, ProductVariant } from '@balcao/core/product';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Radio from '@mui/material/Radio';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

export type ProductChoice = {
  variant: ProductVariant | null;
  additionals: { id: number; name: string; priceCents: number; quantity: number }[];
};

/**
 * What the dialog reads of a product: the catalog's Product, or the QR menu's public product (issue
 * 35: its groups and items, no variants).
 */
export type OptionsProduct = Pick<Product, 'id' | 'name' | 'variants'> & {
  additionalGroups: (Pick<
    ProductAdditionalGroup,
    'id' | 'name' | 'minQuantity' | 'maxQuantity' | 'active'
  > & {
    items: Pick<ProductAdditionalGroup['items'][number], 'id' | 'name' | 'priceCents' | 'active'>[];
  })[];
};

type Props = {
  product: OptionsProduct | null;
  /** A variant already known (scanned by its barcode). */
  variant: ProductVariant | null;
  onChoose: (choice: ProductChoice) => void;
  onClose: () => void;
};

/**
 * Variant picker (grid products) and add-ons (products with additionals), keyboard first. A shared
 * component (the checkout kit re-exports it): the QR menu's public page uses it too without loading
 * the checkout's code (issue 35). Each
 * opening is a fresh dialog (keyed by the product and the known variant): nothing ticked for one
 * product carries over to the next, whether it was added or canceled (issue 30 item 1).
 */
/** A group where exactly one item is chosen (min = max = 1): its items are radios. */
const isSingle = (g: { minQuantity: number; maxQuantity: number }) =>
  g.minQuantity === 1 && g.maxQuantity === 1;

export function ProductOptionsDialog({ product, variant, onChoose, onClose }: Props) {
  if (!product) return null;
  return (
    <OptionsDialog
      key={`${product.id}:${variant?.id ?? ''}`}
      product={product}
      variant={variant}
      onChoose={onChoose}
      onClose={onClose}
    />
  );
}

function OptionsDialog({
  product,
  variant: knownVariant,
  onChoose,
  onClose,
}: Props & { product: OptionsProduct }) {
  const [variant, setVariant] = useState<ProductVariant | null>(knownVariant);
  const [chosen, setChosen] = useState<Record<number, boolean>>({});

  const variants = product.variants.filter((v) => v.active);
  const groups = product.additionalGroups.filter((g) => g.active);
  const needsVariant = variants.length > 0 && !variant;
  const groupProblems = groups.flatMap((g) => {
    const n = g.items.filter((i) => chosen[i.id]).length;
    return n < g.minQuantity || n > g.maxQuantity
      ? [
          g.minQuantity === g.maxQuantity
            ? `Escolha ${g.minQuantity} em ${g.name}`
            : `Escolha de ${g.minQuantity} a ${g.maxQuantity} em ${g.name}`,
        ]
      : [];
  });

  const confirm = (v: ProductVariant | null = variant) => {
    const additionals = groups.flatMap((g) =>
      g.items
        .filter((i) => chosen[i.id])
        .map((i) => ({ id: i.id, name: i.name, priceCents: i.priceCents, quantity: 1 })),
    );
    onChoose({ variant: v, additionals });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="product-options-title" fullWidth maxWidth="sm">
      <DialogTitle id="product-options-title">{product.name}</DialogTitle>
      <DialogContent>
        {variants.length > 0 && (
          <>
            <Typography variant="subtitle2" sx={{ mt: 1 }}>
              Variação
            </Typography>
            <List dense aria-label="Variações">
              {variants.map((v, index) => (
                <ListItemButton
                  key={v.id}
                  selected={variant?.id === v.id}
                  autoFocus={index === 0 && !variant}
                  onClick={() => {
                    setVariant(v);
                    if (groups.length === 0) confirm(v);
                  }}
                >
                  <ListItemText
                    primary={v.name}
                    secondary={`${formatCents(v.effectivePriceCents)} · estoque ${v.stock}${v.sku ? ` · ${v.sku}` : ''}`}
                  />
                </ListItemButton>
              ))}
            </List>
          </>
        )}
        {groups.map((g) => (
          <FormGroup
            key={g.id}
            sx={{ mt: 2 }}
            aria-label={g.name}
            role={isSingle(g) ? 'radiogroup' : undefined}
          >
            <Typography variant="subtitle2">
              {g.name}{' '}
              <Typography component="span" variant="caption" color="text.secondary">
                ({g.minQuantity > 0 ? `mín. ${g.minQuantity}, ` : ''}máx. {g.maxQuantity})
              </Typography>
            </Typography>
            {g.items
              .filter((i) => i.active)
              .map((i) => (
                <FormControlLabel
                  key={i.id}
                  control={
                    isSingle(g) ? (
                      // "Exactly 1" (issue 30): a radio, picking one unpicks the others.
                      <Radio
                        name={`additional-group-${g.id}`}
                        checked={Boolean(chosen[i.id])}
                        onChange={() =>
                          setChosen((c) => ({
                            ...c,
                            ...Object.fromEntries(g.items.map((x) => [x.id, x.id === i.id])),
                          }))
                        }
                      />
                    ) : (
                      <Checkbox
                        checked={Boolean(chosen[i.id])}
                        onChange={(e) => setChosen((c) => ({ ...c, [i.id]: e.target.checked }))}
                      />
                    )
                  }
                  label={`${i.name}${i.priceCents ? ` (+ ${formatCents(i.priceCents)})` : ''}`}
                />
              ))}
          </FormGroup>
        ))}
        {!needsVariant && groupProblems.length > 0 && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {groupProblems.join('; ')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button
          variant="contained"
          disabled={needsVariant || groupProblems.length > 0}
          onClick={() => confirm()}
        >
          Adicionar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
