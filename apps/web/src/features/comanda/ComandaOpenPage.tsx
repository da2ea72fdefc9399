import { comandaOpenInputSchema } from '@balcao/core/comanda';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { openComanda, useComandaWritten } from './api.ts';

type Values = {
  number: string;
  tableLabel: string;
  people: string;
  customerName: string;
  customerPhone: string;
};

const digits = (text: string) => text.replace(/\D/g, '').slice(0, 5);

/** What the schema reads: an empty number is "the next free one". */
export function toOpenInput(v: Values) {
  return {
    number: v.number === '' ? null : Number(v.number),
    tableLabel: v.tableLabel,
    people: v.people === '' ? 1 : Number(v.people),
    customerName: v.customerName,
    customerPhone: v.customerPhone,
  };
}

/** The fields of a new tab (the board's page and the waiter PDV share them). */
export function OpenComandaForm({ onOpened, dense }: { onOpened: (id: number) => void; dense?: boolean }) {
  const written = useComandaWritten();
  const form = useAppForm<Values, ReturnType<typeof comandaOpenInputSchema.parse>>({
    schema: comandaOpenInputSchema,
    defaultValues: { number: '', tableLabel: '', people: '1', customerName: '', customerPhone: '' },
    toInput: toOpenInput,
  });
  const { control } = form;
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        const tab = await openComanda(data);
        await written(tab);
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
