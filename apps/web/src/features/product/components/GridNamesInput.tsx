import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';

export const COLOR_SUGGESTIONS = [
  'Preto',
  'Branco',
  'Azul',
  'Azul marinho',
  'Vermelho',
  'Verde',
  'Amarelo',
  'Cinza',
  'Rosa',
  'Bege',
  'Marrom',
  'Laranja',
  'Roxo',
];
export const SIZE_SUGGESTIONS = [
  'PP',
  'P',
  'M',
  'G',
  'GG',
  'XG',
  'Único',
  '34',
  '36',
  '38',
  '40',
  '42',
  '44',
  '46',
];

/** Colours or sizes of the grid: type a name and press Enter (or pick a suggestion); each becomes a chip. */
export function GridNamesInput({
  label,
  value,
  onChange,
  suggestions,
  disabled,
  error,
  helperText,
}: {
  label: string;
  value: string[];
  onChange: (names: string[]) => void;
  suggestions: string[];
  disabled?: boolean;
  error?: boolean;
  helperText?: string;
}) {
  const add = (names: string[]) => {
    const out: string[] = [];
    for (const raw of names) {
      const name = raw.trim();
      if (name && !out.some((n) => n.toLocaleLowerCase('pt-BR') === name.toLocaleLowerCase('pt-BR')))
        out.push(name);
    }
    onChange(out);
  };
  return (
    <Autocomplete
      multiple
      freeSolo
      options={suggestions}
      value={value}
      disabled={disabled}
      onChange={(_, names) => add(names as string[])}
      renderValue={(names, getItemProps) =>
        names.map((name, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} label={name} size="small" {...props} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder="Digite e tecle Enter"
          error={error}
          helperText={helperText}
        />
      )}
    />
  );
}
