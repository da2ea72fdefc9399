import { type Coupon, formatCouponDiscount, toHundredths } from '@balcao/core/coupon';
import { formatDateBr } from '@balcao/core/date';
import { formatCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import VisibilityIcon from '@mui/icons-material/Visibility';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useConfirmDelete } from '../../components/ConfirmDialog.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ActiveFilter, ListHeader, SearchField } from '../../components/listPage.tsx';
import { shopToday } from '../../lib/format.ts';
import { readParam, useListParams } from '../../lib/listParams.ts';
import { useSession } from '../auth/index.ts';
import { useCoupons, useDeleteCoupon } from './api.ts';

/** The list's state in the URL: the code searched and the status (the API answers every coupon at once). */
function queryFromParams(params: URLSearchParams) {
  return {
    q: readParam.text(params, 'q'),
    active: readParam.oneOf(params, 'active', ['true', 'false'] as const),
  };
}

/** Coupon list (spec 2 and 4): card grid; loading, loaded, error, deleting, then it reloads. */
export default function CouponListPage() {
  const { user } = useSession();
  const clientId = user?.client.id;
  const canWrite = can(user?.userType.id, WRITE.coupons);
  const coupons = useCoupons(clientId);
  const { query, update, search, setSearch } = useListParams(queryFromParams);
  const code = query.q?.toUpperCase();
  const shown = (coupons.data ?? []).filter(
    (c) =>
      (!code || c.code.toUpperCase().includes(code)) &&
      (!query.active || (c.status === 'active') === (query.active === 'true')),
  );
  const deletion = useDeleteCoupon();
  // A failed delete only reloads the list (spec 8).
  const removal = useConfirmDelete<Coupon>({
    title: () => 'Excluir cupom',
    message: (c) => `Deseja excluir o cupom ${c?.code ?? ''}? Ele não poderá mais ser usado em vendas.`,
    remove: (c) => deletion.mutate({ params: { id: c.id } }),
  });

  let content: ReactNode;
  if (deletion.isPending) content = <Loading text="Excluindo..." />;
  else if (coupons.isPending) content = <Loading />;
  else if (coupons.isError)
    content = (
      <LoadError
        what="Não foi possível carregar os cupons."
        error={coupons.error}
        onRetry={() => coupons.refetch()}
      />
    );
  else if (shown.length === 0)
    content = (
      <Paper sx={{ p: 6, textAlign: 'center' }}>
        <LocalOfferIcon color="disabled" sx={{ fontSize: 48 }} aria-hidden />
        <Typography sx={{ mt: 1 }}>Nenhum cupom foi encontrado</Typography>
      </Paper>
    );
  else
    content = (
      <Box
        component="ul"
        aria-label="Cupons"
        sx={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
          gap: 2,
          listStyle: 'none',
          p: 0,
          m: 0,
        }}
      >
        {shown.map((coupon) => (
          <CouponCard
            key={coupon.id}
            coupon={coupon}
            canWrite={canWrite}
            onDelete={() => removal.ask(coupon)}
          />
        ))}
      </Box>
    );

  return (
    <Box>
      <ListHeader
        title="Cupons"
        add={canWrite ? { to: '/dashboard/coupon/new', label: 'Adicionar Cupom' } : undefined}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
        <SearchField value={search} onChange={setSearch} placeholder="Código do cupom" sx={{ flex: 1 }} />
        <ActiveFilter value={query.active} onChange={(active) => update({ active })} sx={{ minWidth: 160 }} />
      </Stack>
      {content}
      {removal.dialog}
    </Box>
  );
}

function CouponCard({
  coupon,
  canWrite,
  onDelete,
}: {
  coupon: Coupon;
  canWrite: boolean;
  onDelete: () => void;
}) {
  const today = shopToday();
  const expired = coupon.endDate < today;
  const minimumCents = toHundredths(coupon.minSaleAmount);
  return (
    <Card
      component="li"
      aria-label={`Cupom ${coupon.code}`}
      sx={{ display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
          <Typography component="h2" variant="h6" sx={{ wordBreak: 'break-all' }}>
            {coupon.code}
          </Typography>
          <Typography variant="h6" color="primary" sx={{ whiteSpace: 'nowrap' }}>
            {formatCouponDiscount(coupon)}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Válido de {formatDateBr(coupon.startDate)} até {formatDateBr(coupon.endDate)}
        </Typography>
        {minimumCents > 0 && (
          <Typography variant="body2" color="text.secondary">
            Compra mínima: {formatCents(minimumCents)}
          </Typography>
        )}
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1.5 }}>
          {coupon.status === 'inactive' && <Chip size="small" label="Inativo" />}
          {expired && <Chip size="small" color="warning" label="Expirado" />}
          {coupon.isSingleUse && <Chip size="small" variant="outlined" label="Uso único" />}
          {coupon.maxUsesPerUser > 0 && (
            <Chip
              size="small"
              variant="outlined"
              label={`Até ${coupon.maxUsesPerUser} ${coupon.maxUsesPerUser === 1 ? 'uso' : 'usos'} por cliente`}
            />
          )}
        </Stack>
      </CardContent>
      <CardActions sx={{ justifyContent: 'flex-end' }}>
        {canWrite ? (
          <Button
            component={RouterLink}
            to={`/dashboard/coupon/edit/${coupon.id}`}
            startIcon={<EditIcon />}
            aria-label={`Editar ${coupon.code}`}
          >
            Editar
          </Button>
        ) : (
          <Button
            component={RouterLink}
            to={`/dashboard/coupon/edit/${coupon.id}`}
            startIcon={<VisibilityIcon />}
            aria-label={`Ver ${coupon.code}`}
          >
            Ver
          </Button>
        )}
        {canWrite && (
          <Button color="error" startIcon={<DeleteIcon />} onClick={onDelete}>
            Excluir
          </Button>
        )}
      </CardActions>
    </Card>
  );
}
