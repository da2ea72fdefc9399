import { maskDecimalInput, parseMoneyToCents } from '@balcao/core/money';
import { maskQuantityInput } from '@balcao/core/product';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';

type Props = Omit<TextFieldProps, 'value' | 'onChange'> & {
  value: string;
  onChange: (text: string) => void;
};

/**
 * Money/percent input (spec 5): digits and one comma, 2 decimals, prefix R$ (or suffix % for a percent).
 * A pasted "1.234,56" keeps its comma and drops the thousands dots. The text is what the input shows;
 * `centsOf` turns it into cents on save.
 */
export function MoneyField({ value, onChange, suffix, slotProps, ...props }: Props & { suffix?: '%' }) {
  return (
    <TextField
      {...props}
      value={value}
      onChange={(e) => onChange(maskDecimalInput(e.target.value))}
      slotProps={{
        ...slotProps,
        htmlInput: { inputMode: 'decimal', autoComplete: 'off', ...(slotProps?.htmlInput as object) },
        input: {
          ...(suffix
            ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
            : { startAdornment: <InputAdornment position="start">R$</InputAdornment> }),
          ...(slotProps?.input as object),
        },
      }}
    />
  );
}

/** Quantity input (spec 5): digits and one comma, a unit suffix (kg, cm, un); 3 decimals unless told. */
export function QuantityField({
  value,
  onChange,
  suffix,
  places = 3,
  slotProps,
  ...props
}: Props & { suffix: string; places?: number }) {
  return (
    <TextField
      {...props}
      value={value}
      onChange={(e) => onChange(maskQuantityInput(e.target.value, places))}
      slotProps={{
        ...slotProps,
        htmlInput: { inputMode: 'decimal', autoComplete: 'off', ...(slotProps?.htmlInput as object) },
        input: {
          endAdornment: <InputAdornment position="end">{suffix}</InputAdornment>,
          ...(slotProps?.input as object),
        },
      }}
    />
  );
}

/** The cents of a money input's text (0 for empty, NaN for junk). */
export function centsOf(text: string): number {
  return text.trim() === '' ? 0 : parseMoneyToCents(text);
}

/** 1234 -> "12,34" (what a money input shows). */
export function centsToInput(cents: number): string {
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}
