import { formatQuantity, type ProductListItem } from '@balcao/core/product';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDebouncedValue } from '../../../lib/useDebouncedValue.ts';
import { productQueries } from '../../product/index.ts';

type Props = {
  clientId: number | undefined;
  label: string;
  value: ProductListItem | null;
  onChange: (product: ProductListItem | null) => void;
  disabled?: boolean;
  error?: boolean;
  helperText?: string;
  /** Clear the text after a pick (a picker that adds rows). */
  clearOnPick?: boolean;
  placeholder?: string;
  size?: 'small' | 'medium';
};

/** Product search by name, SKU or barcode (server side, 10 at a time). */
export function ProductPicker({
  clientId,
  label,
  value,
  onChange,
  disabled,
  error,
  helperText,
  clearOnPick,
  placeholder,
  size,
}: Props) {
  const [input, setInput] = useState('');
  const q = useDebouncedValue(input.trim());
  const options = useQuery({
    ...productQueries.search(clientId ?? 0, q, { pageSize: 10 }),
    enabled: Boolean(clientId) && !disabled,
    select: (data) => data.items,
    staleTime: 10_000,
  });
  // While the typed text waits for its debounced search, the previous answer would be misleading.
  const settled = input.trim() === q;
  const items = settled ? (options.data ?? []) : [];

  return (
    <Autocomplete
      value={value}
      onChange={(_, picked) => {
        onChange(picked);
        if (clearOnPick) setInput('');
      }}
      inputValue={input}
      onInputChange={(_, text, reason) => {
        if (clearOnPick && reason === 'reset') return;
        setInput(text);
      }}
      options={value && !items.some((p) => p.id === value.id) ? [value, ...items] : items}
      filterOptions={(list) => list}
      getOptionLabel={(p) => p.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={options.isFetching || !settled}
      loadingText="Carregando..."
      noOptionsText={q ? 'Nenhum produto encontrado' : 'Digite para buscar'}
      disabled={disabled}
      size={size}
      renderOption={({ key, ...props }, p) => (
        <Box
          component="li"
          key={key}
          {...props}
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'start !important' }}
        >
          <Typography variant="body2">{p.name}</Typography>
          <Typography variant="caption" color="text.secondary">
            {[p.sku, p.barcode].filter(Boolean).join(' · ')}
            {p.stockControl
              ? `${p.sku || p.barcode ? ' · ' : ''}Estoque: ${formatQuantity(p.stock, p.unit)}`
              : ''}
          </Typography>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={placeholder}
          error={error}
          helperText={helperText}
        />
      )}
    />
  );
}
