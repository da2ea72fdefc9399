import { formatCents } from '@balcao/core/money';
import {
  centsToMoneyInput,
  moneyInputToCents,
  type ProductAdditionalGroup,
  productAdditionalInputSchema,
} from '@balcao/core/product';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { MoneyField } from '../../../components/MoneyField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useAdditionalGroups, useSaveAdditionalGroup } from '../api.ts';

function describe(group: ProductAdditionalGroup): string {
  const limits = `mín. ${group.minQuantity}, máx. ${group.maxQuantity}`;
  const items = group.items.map((i) => `${i.name} ${formatCents(i.priceCents)}`).join(' · ');
  return `${limits} — ${items}`;
}

/** Which add-on groups the product offers (the PDV asks for them), with create/edit of groups. */
export function AdditionalsField({
  clientId,
  value,
  onChange,
  canWrite,
}: {
  clientId: number | undefined;
  value: number[];
  onChange: (ids: number[]) => void;
  canWrite: boolean;
}) {
  const groups = useAdditionalGroups(clientId);
  const [editing, setEditing] = useState<ProductAdditionalGroup | 'new' | null>(null);

  return (
    <Box>
      {groups.isError && <Alert severity="error">{errorMessage(groups.error)}</Alert>}
      {groups.data && groups.data.length === 0 && (
        <Typography color="text.secondary" variant="body2">
          Nenhum grupo de adicionais cadastrado.
        </Typography>
      )}
      <Stack>
        {(groups.data ?? []).map((group) => (
          <Stack key={group.id} direction="row" sx={{ alignItems: 'center', gap: 1 }}>
            <FormControlLabel
              sx={{ flex: 1, mr: 0 }}
              disabled={!canWrite}
              control={
                <Checkbox
                  checked={value.includes(group.id)}
                  onChange={(e) =>
                    onChange(e.target.checked ? [...value, group.id] : value.filter((id) => id !== group.id))
                  }
                />
              }
              label={
                <Box>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {group.name}
                    {!group.active && ' (inativo)'}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {describe(group)}
                  </Typography>
                </Box>
              }
            />
            {canWrite && (
              <Tooltip title="Editar grupo">
                <IconButton onClick={() => setEditing(group)} aria-label={`Editar grupo ${group.name}`}>
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Stack>
        ))}
      </Stack>
      {canWrite && (
        <Button startIcon={<AddIcon />} onClick={() => setEditing('new')} sx={{ mt: 1 }}>
          Novo grupo de adicionais
        </Button>
      )}
      {editing && (
        <AdditionalGroupDialog
          group={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            if (editing === 'new') onChange([...value, saved.id]);
            setEditing(null);
          }}
        />
      )}
    </Box>
  );
}

type ItemRow = { id?: number; name: string; price: string };

function AdditionalGroupDialog({
  group,
  onClose,
  onSaved,
}: {
  group?: ProductAdditionalGroup;
  onClose: () => void;
  onSaved: (g: ProductAdditionalGroup) => void;
}) {
  const titleId = useId();
  const save = useSaveAdditionalGroup();
  const [name, setName] = useState(group?.name ?? 'Adicionais');
  const [min, setMin] = useState(String(group?.minQuantity ?? 0));
  const [max, setMax] = useState(String(group?.maxQuantity ?? 3));
  const [items, setItems] = useState<ItemRow[]>(
    group?.items.map((i) => ({ id: i.id, name: i.name, price: centsToMoneyInput(i.priceCents) })) ?? [
      { name: '', price: '' },
    ],
  );
  const [errors, setErrors] = useState<string[]>([]);

  const submit = () => {
    const parsed = productAdditionalInputSchema.safeParse({
      name,
      minQuantity: Number(min || 0),
      maxQuantity: Number(max || 0),
      active: group?.active ?? true,
      items: items
        .filter((i) => i.name.trim() || i.price.trim())
        .map((i) => ({ id: i.id, name: i.name, priceCents: moneyInputToCents(i.price) ?? 0 })),
    });
    if (!parsed.success) {
      setErrors([...new Set(parsed.error.issues.map((i) => i.message))]);
      return;
    }
    setErrors([]);
    save.mutate(
      { id: group?.id, body: { ...parsed.data, updatedAt: group?.updatedAt } },
      { onSuccess: onSaved, onError: (error) => setErrors([errorMessage(error)]) },
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>
        {group ? 'Editar grupo de adicionais' : 'Novo grupo de adicionais'}
      </DialogTitle>
      <DialogContent>
        <Stack sx={{ gap: 2, pt: 1 }}>
          {errors.length > 0 && (
            <Alert severity="error">
              {errors.map((e) => (
                <div key={e}>{e}</div>
              ))}
            </Alert>
          )}
          <TextField label="Nome do grupo" value={name} onChange={(e) => setName(e.target.value)} required />
          <Stack direction="row" sx={{ gap: 2 }}>
            <TextField
              label="Mínimo"
              type="number"
              value={min}
              onChange={(e) => setMin(e.target.value)}
              helperText="0 = opcional"
              slotProps={{ htmlInput: { min: 0, step: 1 } }}
            />
            <TextField
              label="Máximo"
              type="number"
              value={max}
              onChange={(e) => setMax(e.target.value)}
              helperText="Quantos o cliente pode escolher"
              slotProps={{ htmlInput: { min: 1, step: 1 } }}
            />
          </Stack>
          <Typography variant="subtitle2">Itens</Typography>
          {items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; new rows have no id yet
            <Stack key={index} direction="row" sx={{ gap: 1, alignItems: 'flex-start' }}>
              <TextField
                label="Item"
                size="small"
                value={item.name}
                onChange={(e) =>
                  setItems(items.map((it, i) => (i === index ? { ...it, name: e.target.value } : it)))
                }
                sx={{ flex: 2 }}
              />
              <MoneyField
                label="Preço"
                size="small"
                value={item.price}
                onChange={(text) =>
                  setItems(items.map((it, i) => (i === index ? { ...it, price: text } : it)))
                }
                sx={{ flex: 1 }}
              />
              <IconButton
                aria-label={`Remover item ${index + 1}`}
                onClick={() => setItems(items.filter((_, i) => i !== index))}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Stack>
          ))}
          <Button
            startIcon={<AddIcon />}
            onClick={() => setItems([...items, { name: '', price: '' }])}
            sx={{ alignSelf: 'flex-start' }}
          >
            Adicionar item
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          {save.isPending ? 'Salvando...' : 'Salvar grupo'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
