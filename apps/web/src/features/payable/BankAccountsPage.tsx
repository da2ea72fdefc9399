import {
  CASH_FLOW_METHOD_LABELS,
  CASH_FLOW_METHODS,
  type CashFlowMethod,
} from '@balcao/core/cashFlowMethods';
import { type BankAccount, bankAccountInputSchema } from '@balcao/core/payable';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Controller } from 'react-hook-form';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ListHeader, ListTable } from '../../components/listPage.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useBankAccounts, useCreateBankAccount, useUpdateBankAccount } from './api.ts';

type Values = { name: string; bank: string; agency: string; account: string; receives: CashFlowMethod[] };
const EMPTY: Values = { name: '', bank: '', agency: '', account: '', receives: [] };
/** The sales that can land in an account: the till keeps the cash. */
const RECEIVABLE = CASH_FLOW_METHODS.filter((m) => m !== 'money');

function BankAccountDialog({
  open,
  account,
  onClose,
  onSaved,
}: {
  open: boolean;
  account: BankAccount | null;
  onClose: () => void;
  onSaved: (name: string) => void;
}) {
  const create = useCreateBankAccount();
  const update = useUpdateBankAccount();
  const form = useAppForm({
    schema: bankAccountInputSchema,
    defaultValues: EMPTY,
    toInput: (v: Values) => ({ ...v, active: account?.active ?? true }),
  });
  useEffect(() => {
    if (open)
      form.reset(
        account
          ? {
              name: account.name,
              bank: account.bank ?? '',
              agency: account.agency ?? '',
              account: account.account ?? '',
              receives: account.receives,
            }
          : EMPTY,
      );
  }, [open, account, form]);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="bank-account-title" fullWidth maxWidth="xs">
      <Form
        form={form}
        onSubmit={async (body) => {
          if (account) await update.mutateAsync({ params: { id: account.id }, body });
          else await create.mutateAsync({ body });
          onSaved(body.name);
          onClose();
        }}
      >
        <DialogTitle id="bank-account-title">
          {account ? 'Editar conta bancária' : 'Nova conta bancária'}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField
              control={form.control}
              name="name"
              label="Nome"
              helperText="Como a loja chama a conta (Itaú PJ, Nubank...)"
              required
              autoFocus
            />
            <FormTextField control={form.control} name="bank" label="Banco" />
            <Stack direction="row" spacing={1}>
              <FormTextField control={form.control} name="agency" label="Agência" />
              <FormTextField control={form.control} name="account" label="Conta" />
            </Stack>
            <Controller
              control={form.control}
              name="receives"
              render={({ field }) => (
                <FormControl component="fieldset">
                  <FormLabel component="legend">Vendas que caem nesta conta</FormLabel>
                  <FormGroup row>
                    {RECEIVABLE.map((m) => (
                      <FormControlLabel
                        key={m}
                        label={CASH_FLOW_METHOD_LABELS[m]}
                        control={
                          <Checkbox
                            checked={field.value.includes(m)}
                            onChange={(e) =>
                              field.onChange(
                                e.target.checked ? [...field.value, m] : field.value.filter((v) => v !== m),
                              )
                            }
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                </FormControl>
              )}
            />
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
 * Financeiro > Contas bancárias (issue 34): the shop's named accounts a bill is paid from. A deactivated
 * one is not offered for new payments; the payments made from it keep it.
 */
export default function BankAccountsPage() {
  const accounts = useBankAccounts();
  const update = useUpdateBankAccount();
  const { state, show, close } = useFeedback();
  const [editing, setEditing] = useState<{ account: BankAccount | null } | null>(null);
  const toggle = async (a: BankAccount) => {
    try {
      await update.mutateAsync({ params: { id: a.id }, body: { ...a, active: !a.active } });
      show({
        severity: 'success',
        title: a.active ? `Conta ${a.name} desativada` : `Conta ${a.name} reativada`,
      });
    } catch (error) {
      show({ severity: 'error', title: 'Erro ao salvar', message: errorMessage(error) });
    }
  };
  return (
    <Box sx={{ maxWidth: 880 }}>
      <ListHeader title="Contas bancárias">
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ account: null })}>
          Nova conta bancária
        </Button>
      </ListHeader>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Ao pagar uma conta, escolha o caixa ou uma destas contas: o pagamento guarda de onde saiu o dinheiro.
        Marque as vendas que caem em cada conta (Pix, cartões, vales): o fluxo de caixa lido por conta soma
        essas vendas no dia em que caem e tira as contas pagas por ela.
      </Typography>
      {accounts.isPending ? (
        <Loading />
      ) : accounts.isError ? (
        <LoadError
          what="Não foi possível carregar as contas bancárias."
          error={accounts.error}
          onRetry={() => accounts.refetch()}
        />
      ) : accounts.data.length === 0 ? (
        <Typography>Nenhuma conta bancária cadastrada.</Typography>
      ) : (
        <ListTable label="Contas bancárias" head={['Conta', 'Banco', 'Agência', 'Número', 'Recebe', 'Ações']}>
          {accounts.data.map((a) => (
            <TableRow key={a.id} sx={a.active ? undefined : { '& td': { color: 'text.secondary' } }}>
              <TableCell>
                {a.name}
                {!a.active && <Chip label="Desativada" size="small" sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell>{a.bank ?? '-'}</TableCell>
              <TableCell>{a.agency ?? '-'}</TableCell>
              <TableCell>{a.account ?? '-'}</TableCell>
              <TableCell>
                {a.receives.length ? a.receives.map((m) => CASH_FLOW_METHOD_LABELS[m]).join(', ') : '-'}
              </TableCell>
              <TableCell>
                <Button
                  size="small"
                  onClick={() => setEditing({ account: a })}
                  aria-label={`Editar ${a.name}`}
                >
                  Editar
                </Button>
                <Button
                  size="small"
                  color={a.active ? 'warning' : 'primary'}
                  onClick={() => toggle(a)}
                  aria-label={`${a.active ? 'Desativar' : 'Reativar'} ${a.name}`}
                >
                  {a.active ? 'Desativar' : 'Reativar'}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
      <BankAccountDialog
        open={editing !== null}
        account={editing?.account ?? null}
        onClose={() => setEditing(null)}
        onSaved={(name) => show({ severity: 'success', title: `Conta ${name} salva` })}
      />
      <FeedbackSnackbar state={state} onClose={close} />
    </Box>
  );
}
