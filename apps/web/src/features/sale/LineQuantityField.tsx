import type { Control, FieldValues, Path } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import { QuantityField } from '../../components/MoneyField.tsx';

/** A sale line's name as the return and exchange dialogs show it: the description and its variant. */
export const saleLineLabel = (line: { description: string; variantName?: string | null }) =>
  `${line.description}${line.variantName ? ` (${line.variantName})` : ''}`;

/**
 * How much of one sale line goes back (return) or is traded (exchange): a quantity field in the line's
 * unit (whole units for "un", three places for kg/l), bound to `quantities.<line id>` of the dialog's form.
 */
export function LineQuantityField<T extends FieldValues, Out extends FieldValues>(props: {
  control: Control<T, unknown, Out>;
  lineId: number;
  unit: string;
  label: string;
  ariaLabel: string;
  width: number;
}) {
  return (
    <Controller
      control={props.control}
      name={`quantities.${props.lineId}` as Path<T>}
      render={({ field }) => (
        <QuantityField
          size="small"
          label={props.label}
          slotProps={{ htmlInput: { 'aria-label': props.ariaLabel } }}
          suffix={props.unit}
          places={props.unit === 'un' ? 0 : 3}
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          sx={{ width: props.width }}
        />
      )}
    />
  );
}
