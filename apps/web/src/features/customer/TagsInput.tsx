import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useSession } from '../auth/index.ts';
import { useCustomerTags } from './api.ts';

/**
 * Customer tags (segments): type a tag and press Enter, or pick one the shop already uses; each
 * becomes a chip. `onlyKnown` offers only the tags in use (the campaign audience filter).
 */
export function TagsInput({
  label,
  value,
  onChange,
  onBlur,
  onlyKnown = false,
  disabled,
  error,
  helperText,
}: {
  label: string;
  value: string[];
  onChange: (tags: string[]) => void;
  onBlur?: () => void;
  onlyKnown?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: string;
}) {
  const { user } = useSession();
  const known = useCustomerTags(user?.client.id);
  const options = (known.data ?? []).map((t) => t.tag);
  const counts = new Map((known.data ?? []).map((t) => [t.tag.toLocaleLowerCase('pt-BR'), t.count]));
  const set = (tags: string[]) => {
    const out: string[] = [];
    for (const raw of tags) {
      const tag = raw.trim().replace(/\s+/g, ' ');
      if (tag && !out.some((t) => t.toLocaleLowerCase('pt-BR') === tag.toLocaleLowerCase('pt-BR')))
        out.push(tag);
    }
    onChange(out);
  };
  return (
    <Autocomplete
      multiple
      freeSolo={!onlyKnown}
      options={options}
      value={value}
      disabled={disabled}
      onBlur={onBlur}
      onChange={(_, tags) => set(tags as string[])}
      getOptionLabel={(tag) => tag}
      renderOption={(props, tag) => {
        const { key, ...rest } = props as typeof props & { key: string };
        const n = counts.get(tag.toLocaleLowerCase('pt-BR'));
        return (
          <li key={key} {...rest}>
            {n === undefined ? tag : `${tag} (${n})`}
          </li>
        );
      }}
      renderValue={(tags, getItemProps) =>
        tags.map((tag, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} label={tag} size="small" {...props} />;
        })
      }
      noOptionsText={onlyKnown ? 'Nenhuma etiqueta em uso' : 'Digite e tecle Enter'}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={onlyKnown ? 'Escolha etiquetas' : 'Digite e tecle Enter'}
          error={error}
          helperText={helperText}
        />
      )}
    />
  );
}
