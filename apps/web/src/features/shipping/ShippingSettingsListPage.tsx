import { formatCents } from '@balcao/core/money';
import { plural } from '@balcao/core/plural';
import { can, WRITE } from '@balcao/core/routes';
import { FEE_MODE_LABELS, type ShippingRuleSet } from '@balcao/core/shipping';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useConfirmDelete } from '../../components/ConfirmDialog.tsx';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ListHeader, ListTable, RowActions, useHandedOverMessage } from '../../components/listPage.tsx';
import { useSession } from '../auth/index.ts';
import { useDeleteRuleSet, useRuleSets } from './api.ts';

export const RULES_LIST = '/dashboard/settings/shipping-settings';
export const RULES_FORM = '/dashboard/settings/shipping-settings/crud';

/** What a rule set charges, in one line: "Por bairro · 3 bairros", "Taxa fixa · R$ 5,00". */
export function feeSummary(rules: ShippingRuleSet): string {
  switch (rules.feeMode) {
    case 'fixed':
      return `${FEE_MODE_LABELS.fixed}: ${formatCents(rules.fixedPriceCents)}`;
    case 'neighborhood':
      return `${FEE_MODE_LABELS.neighborhood} · ${plural(rules.neighborhoods.length, 'bairro', 'bairros')}`;
    case 'cep_range':
      return `${FEE_MODE_LABELS.cep_range} · ${plural(rules.cepRanges.length, 'faixa', 'faixas')}`;
    case 'distance':
      return `${FEE_MODE_LABELS.distance} · até ${rules.distanceTiers.at(-1)?.upToKm ?? 0} km`;
  }
}

/** Configurações de entrega: the shop's own delivery rule sets, the default one marked. */
export default function ShippingSettingsListPage() {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.settings);
  const rules = useRuleSets(user?.client.id);
  const { state, show, close } = useFeedback();
  useHandedOverMessage(show);
  const deletion = useDeleteRuleSet();
  const removal = useConfirmDelete<ShippingRuleSet>({
    title: () => 'Excluir regra de entrega',
    message: (r) => `Deseja excluir a regra "${r?.name ?? ''}"?`,
    remove: (r, callbacks) => deletion.mutate({ params: { id: r.id } }, callbacks),
    feedback: { show, done: () => 'Regra de entrega excluída', failed: 'Erro ao excluir a regra de entrega' },
  });

  return (
    <>
      <ListHeader
        title="Configurações de entrega"
        add={canWrite ? { to: RULES_FORM, label: 'Nova regra' } : undefined}
      />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Regras da entrega própria: a taxa por bairro, faixa de CEP ou distância, frete grátis, pedido mínimo e
        o que o entregador recebe. A regra padrão é a usada no PDV.
      </Typography>
      {rules.isPending ? (
        <Loading />
      ) : rules.isError ? (
        <LoadError
          what="Não foi possível carregar as regras de entrega."
          error={rules.error}
          onRetry={() => rules.refetch()}
        />
      ) : rules.data.length === 0 ? (
        <Paper sx={{ p: 6, textAlign: 'center' }}>
          <LocalShippingIcon color="disabled" sx={{ fontSize: 48 }} aria-hidden />
          <Typography sx={{ mt: 1 }}>Nenhuma regra de entrega cadastrada</Typography>
        </Paper>
      ) : (
        <Paper>
          <ListTable label="Regras de entrega" head={['Nome', 'Taxa', 'Prazo', 'Situação', '']}>
            {rules.data.map((r) => (
              <TableRow key={r.id} hover>
                <TableCell>{r.name}</TableCell>
                <TableCell>{feeSummary(r)}</TableCell>
                <TableCell>{r.deliveryTimeMinutes} min</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1}>
                    {r.isDefault && <Chip size="small" color="primary" label="Padrão" />}
                    <Chip
                      size="small"
                      label={r.active ? 'Ativa' : 'Inativa'}
                      color={r.active ? 'success' : 'default'}
                      variant="outlined"
                    />
                  </Stack>
                </TableCell>
                <RowActions
                  editTo={`${RULES_FORM}?id=${r.id}`}
                  name={r.name}
                  canEdit={canWrite}
                  onDelete={canWrite ? () => removal.ask(r) : undefined}
                />
              </TableRow>
            ))}
          </ListTable>
        </Paper>
      )}
      {removal.dialog}
      <FeedbackSnackbar state={state} onClose={close} />
    </>
  );
}
