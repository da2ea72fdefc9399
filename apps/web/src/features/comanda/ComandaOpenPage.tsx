import { comandaOpenInputSchema } from '@balcao/core/comanda';
import type { CustomerListItem } from '@balcao/core/customer';
import { ACTION, can } from '@balcao/core/routes';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { useDebouncedValue } from '../../lib/useDebouncedValue.ts';
import { useSession } from '../auth/index.ts';
import { searchCustomers } from '../sale/index.ts';
import { useOpenComanda, useWaiters } from './api.ts';

type Values = {
  customerId: number | null;
  number: string;
  tableLabel: string;
  people: string;
  customerName: string;
  customerPhone: string;
  /** '' = none (a Garçom opening a tab serves it). */
  waiterId: string;
};

const digits = (text: string) => text.replace(/\D/g, '').slice(0, 5);

/** What the schema reads: an empty number is "the next free one". */
export function toOpenInput(v: Values) {
  return {
    number: v.number === '' ? null : Number(v.number),
    customerId: v.customerId,
    tableLabel: v.tableLabel,
    people: v.people === '' ? 1 : Number(v.people),
    customerName: v.customerName,
    customerPhone: v.customerPhone,
    waiterId: v.waiterId === '' ? null : Number(v.waiterId),
  };
}

/** The fields of a new tab (the board's page and the waiter PDV share them). */
export function OpenComandaForm({ onOpened, dense }: { onOpened: (id: number) => void; dense?: boolean }) {
  const openComanda = useOpenComanda();
  const { user } = useSession();
  const waiters = useWaiters();
  const form = useAppForm<Values, ReturnType<typeof comandaOpenInputSchema.parse>>({
    schema: comandaOpenInputSchema,
    defaultValues: {
      customerId: null,
      number: '',
      tableLabel: '',
      people: '1',
      customerName: '',
      customerPhone: '',
      waiterId: user && can(user.userType.id, ACTION.serveTables) ? String(user.id) : '',
    },
    toInput: toOpenInput,
  });
  const { control } = form;
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        const tab = await openComanda.mutateAsync({ body: data });
        onOpened(tab.id);
      }}
    >
      <Stack sx={{ gap: 2 }}>
        <FormError />
        <Stack direction={dense ? 'column' : { xs: 'column', sm: 'row' }} sx={{ gap: 2 }}>
          <FormTextField
            control={control}
            name="number"
            label="Número"
            placeholder="Próximo livre"
            mask={digits}
            helperText="Vazio: o próximo número livre"
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
          <FormTextField control={control} name="tableLabel" label="Mesa" />
          <FormTextField
            control={control}
            name="people"
            label="Pessoas"
            mask={(t) => digits(t).slice(0, 3)}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        </Stack>
        <TextField
          select
          label="Garçom"
          value={form.watch('waiterId')}
          onChange={(e) => form.setValue('waiterId', e.target.value)}
          helperText="Quem atende a comanda (filtra o painel)"
        >
          <MenuItem value="">Sem garçom</MenuItem>
          {(waiters.data?.items ?? []).map((w) => (
            <MenuItem key={w.id} value={String(w.id)}>
              {w.name}
            </MenuItem>
          ))}
        </TextField>
        <CustomerSearch
          onPick={(c) => {
            form.setValue('customerId', c?.id ?? null);
            form.setValue('customerName', c?.name ?? '');
            form.setValue('customerPhone', c?.phone ?? '');
          }}
        />
        <Stack direction={dense ? 'column' : { xs: 'column', sm: 'row' }} sx={{ gap: 2 }}>
          <FormTextField control={control} name="customerName" label="Cliente (opcional)" />
          <FormTextField
            control={control}
            name="customerPhone"
            label="Telefone (opcional)"
            slotProps={{ htmlInput: { inputMode: 'tel' } }}
          />
        </Stack>
        <Box>
          <SubmitButton busyLabel="Abrindo..." size="large">
            Abrir comanda
          </SubmitButton>
        </Box>
      </Stack>
    </Form>
  );
}

/** A registered customer by name, document or phone (optional: a name and phone typed also do). */
function CustomerSearch({ onPick }: { onPick: (customer: CustomerListItem | null) => void }) {
  const { user } = useSession();
  const [text, setText] = useState('');
  const [options, setOptions] = useState<CustomerListItem[]>([]);
  const q = useDebouncedValue(text.trim(), 300);
  useEffect(() => {
    if (!user?.client || q.length < 2) {
      setOptions([]);
      return;
    }
    const controller = new AbortController();
    searchCustomers(user.client.id, q, controller.signal)
      .then((page) => setOptions(page.items))
      .catch(() => null);
    return () => controller.abort();
  }, [q, user?.client]);
  return (
    <Autocomplete
      options={options}
      filterOptions={(o) => o}
      getOptionLabel={(c) => `${c.name}${c.phone ? ` · ${c.phone}` : ''}`}
      onInputChange={(_, value) => setText(value)}
      onChange={(_, value) => onPick(value)}
      noOptionsText={q.length < 2 ? 'Digite ao menos 2 letras' : 'Nenhum cliente encontrado'}
      renderInput={(params) => <TextField {...params} label="Buscar cliente cadastrado (opcional)" />}
    />
  );
}

/** /dashboard/sale/command/new */
export default function ComandaOpenPage() {
  const navigate = useNavigate();
  return (
    <Box sx={{ maxWidth: 760 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
        Abrir comanda
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <OpenComandaForm onOpened={(id) => navigate(`/dashboard/sale/command/edit/${id}`)} />
      </Paper>
    </Box>
  );
}
