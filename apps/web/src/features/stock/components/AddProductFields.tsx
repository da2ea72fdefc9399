import type { BarcodeMatch, ProductListItem } from '@balcao/core/product';
import Box from '@mui/material/Box';
import { useState } from 'react';
import { BarcodeScanField } from './BarcodeScanField.tsx';
import { ProductPicker } from './ProductPicker.tsx';

/**
 * How a stock form (entry, exit) gets its products: a barcode scanner field and a name/SKU search,
 * side by side from md up. A scan gives the product (and variant) at once; a pick gives its id.
 */
export function AddProductFields({
  clientId,
  disabled,
  searchLabel,
  onScan,
  onPick,
  onNotFound,
}: {
  clientId: number | undefined;
  disabled: boolean;
  searchLabel: string;
  onScan: (match: BarcodeMatch) => void;
  onPick: (productId: number) => void;
  onNotFound: (message: string) => void;
}) {
  const [picked, setPicked] = useState<ProductListItem | null>(null);
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 2fr' }, mb: 2 }}>
      <BarcodeScanField disabled={disabled} onFound={onScan} onError={onNotFound} />
      <ProductPicker
        clientId={clientId}
        label={searchLabel}
        placeholder="Nome, SKU ou código"
        value={picked}
        clearOnPick
        disabled={disabled}
        onChange={(p) => {
          setPicked(null);
          if (p) onPick(p.id);
        }}
      />
    </Box>
  );
}
