import {
  MARKETPLACE_KIND_LABELS,
  MARKETPLACE_KINDS,
  type MarketplaceAccount,
  type MarketplaceAccountData,
  type MarketplaceAccountInput,
  marketplaceAccountInputSchema,
} from '@balcao/core/marketplace';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import {
  Form,
  FormError,
  FormSwitch,
  FormTextField,
  SubmitButton,
  useAppForm,
} from '../../components/form.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useCreateAccount, useMarketplaceAccounts, useMarketplaceMappings, useUpdateAccount } from './api.ts';

type Values = Required<Omit<MarketplaceAccountInput, 'kind'>> & { kind: MarketplaceAccountInput['kind'] };

const EMPTY: Values = {
  kind: 'ifood',
  provider: '',
  name: 'iFood',
  merchantId: '',
  clientId: '',
  clientSecret: '',
  active: true,
  autoConfirm: false,
};

function valuesOf(a: MarketplaceAccount): Values {
  return { ...a, clientSecret: '' };
}

function AccountForm({
  editing,
  providers,
  onDone,
}: {
  editing: MarketplaceAccount | null;
  providers: string[];
  onDone: (message: string) => void;
}) {
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const form = useAppForm<Values, MarketplaceAccountData>({
    schema: marketplaceAccountInputSchema,
    defaultValues: editing ? valuesOf(editing) : EMPTY,
  });
  const kind = form.watch('kind');
  const save = async (data: MarketplaceAccountData) => {
    if (editing) await update.mutateAsync({ params: { id: editing.id }, body: data });
    else await create.mutateAsync({ body: data });
    onDone(editing ? 'Conta de marketplace salva' : 'Conta de marketplace adicionada');
  };
  return (
    <Paper component="section" aria-label="Conta de marketplace" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {editing ? `Editar ${editing.name}` : 'Adicionar conta'}
      </Typography>
      <Form form={form} onSubmit={save}>
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField control={form.control} name="kind" label="Marketplace" select>
              {MARKETPLACE_KINDS.map((k) => (
                <MenuItem key={k} value={k}>
                  {MARKETPLACE_KIND_LABELS[k]}
                </MenuItem>
              ))}
            </FormTextField>
            {kind === 'opendelivery' && (
              <FormTextField
                control={form.control}
                name="provider"
                label="Aplicativo"
                select
                helperText={
                  providers.length === 0
                    ? 'Nenhum aplicativo Open Delivery configurado no servidor'
                    : undefined
                }
              >
                {providers.map((p) => (
                  <MenuItem key={p} value={p}>
                    {p}
                  </MenuItem>
                ))}
              </FormTextField>
            )}
            <FormTextField control={form.control} name="name" label="Nome (origem da venda)" />
          </Stack>
          <FormTextField
            control={form.control}
            name="merchantId"
            label="ID da loja no marketplace (merchant ID)"
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField control={form.control} name="clientId" label="Client ID" autoComplete="off" />
            <FormTextField
              control={form.control}
              name="clientSecret"
              label="Client secret"
              type="password"
              autoComplete="new-password"
              helperText={
                editing?.hasSecret ? 'Guardado criptografado. Deixe em branco para manter.' : undefined
              }
            />
          </Stack>
          <FormSwitch control={form.control} name="active" label="Receber pedidos desta conta" />
          <FormSwitch
            control={form.control}
            name="autoConfirm"
            label="Confirmar pedidos automaticamente no horário de funcionamento"
          />
          <Typography variant="body2" color="text.secondary">
            Sem confirmação automática, confirme cada pedido em Vendas &gt; Pedidos de marketplace antes do
            prazo do marketplace (8 minutos no iFood). Confirmadas automaticamente, as vendas entram no caixa
            de quem salva esta conta; confirmadas à mão, no caixa de quem confirma. O que foi pago online
            nunca entra no dinheiro da gaveta.
          </Typography>
          <FormError />
          <Stack direction="row" spacing={1}>
            <SubmitButton busyLabel="Salvando...">{editing ? 'Salvar' : 'Adicionar'}</SubmitButton>
          </Stack>
        </Stack>
      </Form>
    </Paper>
  );
}

function Mappings() {
  const mappings = useMarketplaceMappings();
  if (!mappings.data || mappings.data.mappings.length === 0) return null;
  return (
    <Paper component="section" aria-label="Itens associados" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Itens associados
      </Typography>
      <Stack component="ul" spacing={0.5} sx={{ m: 0, pl: 2.5 }}>
        {mappings.data.mappings.map((m) => (
          <li key={`${m.accountId}:${m.externalCode}`}>
            <Typography variant="body2">
              {m.name} ({m.externalCode}) → {m.product.name}
            </Typography>
          </li>
        ))}
      </Stack>
    </Paper>
  );
}

/** Configurações > Marketplaces (issue 35): iFood and Open Delivery accounts and the item mappings. */
export default function MarketplaceSettingsPage() {
  const accounts = useMarketplaceAccounts();
  const feedback = useFeedback();
  const [editing, setEditing] = useState<MarketplaceAccount | null>(null);
  const [formKey, setFormKey] = useState(0);
  if (accounts.isPending) return <Loading />;
  if (accounts.isError)
    return (
      <LoadError what="as contas de marketplace" error={accounts.error} onRetry={() => accounts.refetch()} />
    );
  const { data } = accounts;
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Marketplaces
      </Typography>
      {data.accounts.map((a) => (
        <Paper key={a.id} component="section" sx={{ p: 2 }} aria-label={`Conta ${a.name}`}>
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', gap: 1 }}>
            <div>
              <Typography sx={{ fontWeight: 600 }}>
                {a.name} · {MARKETPLACE_KIND_LABELS[a.kind]}
                {a.provider ? ` (${a.provider})` : ''}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Loja {a.merchantId} · caixa de {a.operator.name}
                {a.lastPolledAt
                  ? ` · última consulta ${formatDateTime(a.lastPolledAt)}`
                  : a.lastError
                    ? ' · nenhuma consulta deu certo ainda'
                    : ' · ainda não consultado'}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
                <Chip
                  size="small"
                  label={a.active ? 'Ativa' : 'Inativa'}
                  color={a.active ? 'success' : 'default'}
                />
                {a.autoConfirm && <Chip size="small" label="Confirmação automática" />}
              </Stack>
            </div>
            <Button
              onClick={() => {
                setEditing(a);
                setFormKey((k) => k + 1);
              }}
            >
              Editar
            </Button>
          </Stack>
          {a.lastError && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {a.lastError}
            </Alert>
          )}
        </Paper>
      ))}
      <AccountForm
        key={formKey}
        editing={editing}
        providers={data.providers}
        onDone={(message) => {
          feedback.show({ severity: 'success', title: message });
          setEditing(null);
          setFormKey((k) => k + 1);
        }}
      />
      <Mappings />
      <FeedbackSnackbar state={feedback.state} onClose={feedback.close} />
    </Stack>
  );
}
