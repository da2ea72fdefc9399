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
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import type { z } from 'zod';
import {
  Form,
  FormError,
  FormMoneyField,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../../components/form.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useAdditionalGroups, useCreateAdditionalGroup, useUpdateAdditionalGroup } from '../api.ts';

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
type GroupValues = { name: string; min: string; max: string; items: ItemRow[] };

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
  const create = useCreateAdditionalGroup();
  const update = useUpdateAdditionalGroup();
  // Blank item rows are left out; the schema's item indexes point into the rows kept.
  const kept = useRef<number[]>([]);
  const form = useAppForm({
    schema: productAdditionalInputSchema,
    defaultValues: {
      name: group?.name ?? 'Adicionais',
      min: String(group?.minQuantity ?? 0),
      max: String(group?.maxQuantity ?? 3),
      items: group?.items.map((i) => ({
        id: i.id,
        name: i.name,
        price: centsToMoneyInput(i.priceCents),
      })) ?? [{ name: '', price: '' }],
    } as GroupValues,
    toInput: (values: GroupValues) => {
      kept.current = values.items.flatMap((item, index) =>
        item.name.trim() || item.price.trim() ? [index] : [],
      );
      return {
        name: values.name,
        minQuantity: Number(values.min || 0),
        maxQuantity: Number(values.max || 0),
        active: group?.active ?? true,
        items: kept.current.map((index) => {
          const item = values.items[index];
          return { id: item.id, name: item.name, priceCents: moneyInputToCents(item.price) ?? 0 };
        }),
      };
    },
    fieldOf: (path) =>
      path
        .replace(/^minQuantity$/, 'min')
        .replace(/^maxQuantity$/, 'max')
        .replace(
          /^items\.(\d+)\.(name|priceCents)$/,
          (_, index: string, field: string) =>
            `items.${kept.current[Number(index)]}.${field === 'priceCents' ? 'price' : 'name'}`,
        ),
  });
  const items = useFieldArray({ control: form.control, name: 'items' });

  const submit = async (body: z.output<typeof productAdditionalInputSchema>) => {
    onSaved(
      group
        ? await update.mutateAsync({
            params: { id: group.id },
            body: { ...body, updatedAt: group.updatedAt },
          })
        : await create.mutateAsync({ body }),
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <Form form={form} onSubmit={submit}>
        <DialogTitle id={titleId}>
          {group ? 'Editar grupo de adicionais' : 'Novo grupo de adicionais'}
        </DialogTitle>
        <DialogContent>
          <Stack sx={{ gap: 2, pt: 1 }}>
            <FormError />
            <FormTextField control={form.control} name="name" label="Nome do grupo" required />
            <Stack direction="row" sx={{ gap: 2 }}>
              <FormTextField
                control={form.control}
                name="min"
                label="Mínimo"
                type="number"
                helperText="0 = opcional"
                slotProps={{ htmlInput: { min: 0, step: 1 } }}
              />
              <FormTextField
                control={form.control}
                name="max"
                label="Máximo"
                type="number"
                helperText="Quantos o cliente pode escolher"
                slotProps={{ htmlInput: { min: 1, step: 1 } }}
              />
            </Stack>
            <Typography variant="subtitle2">Itens</Typography>
            {items.fields.map((item, index) => (
              <Stack key={item.id} direction="row" sx={{ gap: 1, alignItems: 'flex-start' }}>
                <FormTextField
                  control={form.control}
                  name={`items.${index}.name`}
                  label="Item"
                  size="small"
                  sx={{ flex: 2 }}
                />
                <FormMoneyField
                  control={form.control}
                  name={`items.${index}.price`}
                  label="Preço"
                  size="small"
                  sx={{ flex: 1 }}
                />
                <IconButton aria-label={`Remover item ${index + 1}`} onClick={() => items.remove(index)}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Stack>
            ))}
            <Button
              startIcon={<AddIcon />}
              onClick={() => items.append({ name: '', price: '' })}
              sx={{ alignSelf: 'flex-start' }}
            >
              Adicionar item
            </Button>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancelar</Button>
          <SubmitButton busyLabel="Salvando...">Salvar grupo</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
