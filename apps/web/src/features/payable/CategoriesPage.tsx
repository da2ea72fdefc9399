import {
  DRE_GROUP_LABELS,
  DRE_GROUPS,
  type PayableCategoryItem,
  payableCategoryInputSchema,
} from '@balcao/core/payable';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ListHeader, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useCreateCategory, usePayableCategories, useUpdateCategory } from './api.ts';

type Values = { name: string; group: string };
const EMPTY: Values = { name: '', group: 'operating' };

/** New (category null) or rename / move to another DRE group (a category). */
function CategoryDialog({
  open,
  category,
  onClose,
  onSaved,
}: {
  open: boolean;
  category: PayableCategoryItem | null;
  onClose: () => void;
  onSaved: (name: string) => void;
}) {
  const create = useCreateCategory();
  const update = useUpdateCategory();
  const form = useAppForm({ schema: payableCategoryInputSchema, defaultValues: EMPTY });
  useEffect(() => {
    if (open) form.reset(category ? { name: category.name, group: category.group } : EMPTY);
  }, [open, category, form]);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="category-title" fullWidth maxWidth="xs">
      <Form
        form={form}
        onSubmit={async (body) => {
          if (category)
            await update.mutateAsync({
              params: { id: category.id },
              body: { ...body, archived: category.archived },
            });
          else await create.mutateAsync({ body });
          onSaved(body.name);
          onClose();
        }}
      >
        <DialogTitle id="category-title">{category ? 'Editar categoria' : 'Nova categoria'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField control={form.control} name="name" label="Nome" required autoFocus />
            <FormTextField control={form.control} name="group" label="Grupo do DRE" select required>
              {DRE_GROUPS.map((g) => (
                <MenuItem key={g} value={g}>
                  {DRE_GROUP_LABELS[g]}
                </MenuItem>
              ))}
            </FormTextField>
            <FormError />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancelar</Button>
          <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/**
 * Financeiro > Categorias de despesa (issue 34): the shop's own categories, each in one of the six DRE
 * groups. An archived one is not offered for new bills; the bills that have it keep it.
 */
export default function CategoriesPage() {
  const categories = usePayableCategories();
  const update = useUpdateCategory();
  const { state, show, close } = useFeedback();
  const [editing, setEditing] = useState<{ category: PayableCategoryItem | null } | null>(null);
  const toggle = async (c: PayableCategoryItem) => {
    try {
      await update.mutateAsync({
        params: { id: c.id },
        body: { name: c.name, group: c.group, archived: !c.archived },
      });
      show({
        severity: 'success',
        title: c.archived ? `Categoria ${c.name} reativada` : `Categoria ${c.name} arquivada`,
      });
    } catch (error) {
      show({ severity: 'error', title: 'Erro ao salvar', message: errorMessage(error) });
    }
  };
  return (
    <Box sx={{ maxWidth: 880 }}>
      <ListHeader title="Categorias de despesa">
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ category: null })}>
          Nova categoria
        </Button>
      </ListHeader>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Cada categoria soma no seu grupo do DRE. Uma categoria arquivada não aparece para contas novas; as
        contas que já a usam continuam com ela.
      </Typography>
      {categories.isPending ? (
        <Loading />
      ) : categories.isError ? (
        <LoadError
          what="Não foi possível carregar as categorias."
          error={categories.error}
          onRetry={() => categories.refetch()}
        />
      ) : (
        <ListTable label="Categorias de despesa" head={['Categoria', 'Grupo do DRE', 'Ações']}>
          {categories.data.map((c) => (
            <TableRow key={c.id} sx={c.archived ? { '& td': { color: 'text.secondary' } } : undefined}>
              <TableCell>
                {c.name}
                {c.archived && <Chip label="Arquivada" size="small" sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell>{DRE_GROUP_LABELS[c.group]}</TableCell>
              <TableCell>
                <Button
                  size="small"
                  onClick={() => setEditing({ category: c })}
                  aria-label={`Editar ${c.name}`}
                >
                  Editar
                </Button>
                <Button
                  size="small"
                  color={c.archived ? 'primary' : 'warning'}
                  onClick={() => toggle(c)}
                  aria-label={`${c.archived ? 'Reativar' : 'Arquivar'} ${c.name}`}
                >
                  {c.archived ? 'Reativar' : 'Arquivar'}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
      <CategoryDialog
        open={editing !== null}
        category={editing?.category ?? null}
        onClose={() => setEditing(null)}
        onSaved={(name) => show({ severity: 'success', title: `Categoria ${name} salva` })}
      />
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
