import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSession } from '../auth/index.ts';
import { productQueries } from '../product/index.ts';

type Picked = { id: number; name: string };

/** A product of the shop, searched as one types (the mapping of a marketplace item). */
export function ProductPicker({
  label,
  onPick,
  disabled,
}: {
  label: string;
  onPick: (product: Picked) => void;
  disabled?: boolean;
}) {
  const { user } = useSession();
  const [q, setQ] = useState('');
  const search = useQuery({ ...productQueries.search(user?.client.id ?? 0, q), enabled: Boolean(user) });
  const options: Picked[] = (search.data?.items ?? []).map((p: { id: number; name: string }) => ({
    id: p.id,
    name: p.name,
  }));
  return (
    <Autocomplete
      size="small"
      options={options}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={search.isFetching}
      disabled={disabled}
      onInputChange={(_, value) => setQ(value)}
      onChange={(_, value) => value && onPick(value)}
      noOptionsText="Nenhum produto encontrado"
      loadingText="Buscando..."
      sx={{ minWidth: 240, flex: 1 }}
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}
