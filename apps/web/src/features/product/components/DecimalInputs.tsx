import { maskDecimalInput } from '@balcao/core/money';
import { maskQuantityInput } from '@balcao/core/product';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';

type Base = Omit<TextFieldProps, 'onChange' | 'value'> & {
  value: string;
  onChange: (text: string) => void;
};

/** Money input (spec 5): prefix R$, digits and one comma, 2 decimals. */
export function MoneyField({ value, onChange, slotProps, ...props }: Base) {
  return (
    <TextField
      {...props}
      value={value}
      onChange={(e) => onChange(maskDecimalInput(e.target.value))}
      slotProps={{
        ...slotProps,
        htmlInput: { inputMode: 'decimal', ...(slotProps?.htmlInput as object) },
        input: { startAdornment: <InputAdornment position="start">R$</InputAdornment> },
      }}
    />
  );
}

/** Quantity input (spec 5): digits and one comma, suffix kg, cm or un; 3 decimals (2 for cm). */
export function QuantityField({
  value,
  onChange,
  suffix,
  places = 3,
  slotProps,
  ...props
}: Base & { suffix: string; places?: number }) {
  return (
    <TextField
      {...props}
      value={value}
      onChange={(e) => onChange(maskQuantityInput(e.target.value, places))}
      slotProps={{
        ...slotProps,
        htmlInput: { inputMode: 'decimal', ...(slotProps?.htmlInput as object) },
        input: { endAdornment: <InputAdornment position="end">{suffix}</InputAdornment> },
      }}
    />
  );
}
