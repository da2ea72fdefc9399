import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useSuppliers } from './api.ts';

/** The bill a stock entry creates (issue 34): on or off, supplier, first due date, instalments. */
export type BillChoice = { on: boolean; supplierId: string; dueDate: string; installments: string };

/**
 * "Gerar conta a pagar" on the stock entry: the entry's value becomes the supplier's bill in the same
 * step (POST /v1/payable/purchase). Shown to who writes both the stock and the finance.
 */
export function PurchaseBillFields({
  value,
  onChange,
  disabled,
}: {
  value: BillChoice;
  onChange: (value: BillChoice) => void;
  disabled?: boolean;
}) {
  const suppliers = useSuppliers();
  const set = (patch: Partial<BillChoice>) => onChange({ ...value, ...patch });
  return (
    <Box sx={{ mt: 3 }} data-testid="purchase-bill">
      <FormControlLabel
        control={
          <Checkbox checked={value.on} onChange={(e) => set({ on: e.target.checked })} disabled={disabled} />
        }
        label="Gerar conta a pagar desta compra"
      />
      {value.on && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1fr' }, mt: 1 }}>
          <TextField
            select
            label="Fornecedor"
            value={value.supplierId}
            onChange={(e) => set({ supplierId: e.target.value })}
            disabled={disabled}
            required
          >
            {(suppliers.data?.items ?? []).map((s) => (
              <MenuItem key={s.id} value={String(s.id)}>
                {s.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            type="date"
            label="Primeiro vencimento"
            value={value.dueDate}
            onChange={(e) => set({ dueDate: e.target.value })}
            disabled={disabled}
            required
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Parcelas"
            value={value.installments}
            onChange={(e) => set({ installments: e.target.value.replace(/\D/g, '').slice(0, 2) })}
            disabled={disabled}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        </Box>
      )}
    </Box>
  );
}
