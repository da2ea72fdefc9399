import { formatDateLong } from '@balcao/core/date';
import { changePercent, type Home, type HomeSales, type SalesPeriod } from '@balcao/core/home';
import { formatCents } from '@balcao/core/money';
import { plural, pluralWord } from '@balcao/core/plural';
import { formatQuantity } from '@balcao/core/product';
import { menuFor } from '@balcao/core/routes';
import { PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../components/LoadError.tsx';
import { formatTime } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import { useHome } from './api.ts';

const HomeCharts = lazy(() => import('./HomeCharts.tsx'));

/** "1 vendido", "3 vendidos", "1,5 vendido" (a top product's quantity, Portuguese plural rules). */
export function soldText(quantity: number): string {
  return `${formatQuantity(quantity)} ${pluralWord(quantity, 'vendido', 'vendidos')}`;
}

/** Home (/dashboard): the shop's day at a glance, by user type; the areas a user type opens otherwise. */
export default function HomePage() {
  const { user, settingsChecklist } = useSession();
  const home = useHome(user?.client.id);
  if (!user) return null;
  const data = home.data;
  const empty =
    data &&
    !data.sales &&
    !data.register &&
    !data.lowStock &&
    !data.receivables &&
    !data.drivers?.orders &&
    !data.tables;
  return (
    <>
      <Typography component="h1" variant="h5">
        Olá, {user.name.split(' ')[0]}!
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {user.client.name} · {user.userType.name}
        {data ? ` · ${formatDateLong(data.today)}` : ''}
      </Typography>
      {home.isPending && <LinearProgress aria-label="Carregando o resumo do dia" sx={{ mb: 2 }} />}
      {home.isError && <LoadError what="o resumo do dia" error={home.error} onRetry={() => home.refetch()} />}
      {/* The payables card alone (a Financeiro without the shop's figures) keeps the shortcuts below it. */}
      {data && (!empty || data.payables) && <Day home={data} />}
      {(empty || home.isError) && <Shortcuts groups={menuFor(user.userType.id, settingsChecklist)} />}
    </>
  );
}

function Day({ home }: { home: Home }) {
  const { sales, register, lowStock, receivables, tables, payables } = home;
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      {tables && (
        <>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <Figure
              title="Suas comandas abertas"
              to="/dashboard/sale/waiter-pdv"
              testId="home-tables-open"
              value={plural(tables.open.count, 'comanda', 'comandas')}
              note={
                tables.open.count > 0 ? `${formatCents(tables.open.amountCents)} até agora` : 'Nenhuma aberta'
              }
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <Figure
              title="Suas comandas fechadas hoje"
              to="/dashboard/sale/command"
              testId="home-tables-closed"
              value={formatCents(tables.closedToday.amountCents)}
              note={plural(tables.closedToday.count, 'comanda fechada', 'comandas fechadas')}
            />
          </Grid>
        </>
      )}
      {sales && (
        <>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <PeriodCard
              title="Vendas hoje"
              period={sales.today}
              before={sales.yesterdayUntilNow}
              beforeLabel="ontem até agora"
              testId="home-today"
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
            <PeriodCard
              title="Vendas no mês"
              period={sales.month}
              before={sales.previousMonthUntilNow}
              beforeLabel="mês passado até hoje"
              testId="home-month"
            />
          </Grid>
        </>
      )}
      {register && (
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <RegisterCard cashRegister={register.cashRegister} />
        </Grid>
      )}
      {lowStock && (
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Figure
            title="Estoque baixo"
            to="/dashboard/product?lowStock=true"
            testId="home-low-stock"
            value={plural(lowStock.count, 'produto', 'produtos')}
            color={lowStock.count > 0 ? 'warning.main' : undefined}
            note={lowStock.count > 0 ? 'no mínimo ou abaixo dele' : 'Nenhum produto abaixo do mínimo'}
          />
        </Grid>
      )}
      {home.drivers && home.drivers.orders > 0 && (
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <Figure
            title="A receber dos entregadores"
            to="/dashboard/sale/delivery/settlement"
            testId="home-drivers"
            value={formatCents(home.drivers.toCollectCents)}
            color="warning.main"
            note={`troco e dinheiro de ${plural(home.drivers.orders, 'entrega', 'entregas')} sem acerto`}
          />
        </Grid>
      )}
      {receivables && !sales && (
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <ReceivablesCard receivables={receivables} />
        </Grid>
      )}
      {payables && (
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <PayablesCard payables={payables} />
        </Grid>
      )}
      {sales && <SalesDetail sales={sales} receivables={receivables} />}
    </Grid>
  );
}

function PeriodCard({
  title,
  period,
  before,
  beforeLabel,
  testId,
}: {
  title: string;
  period: SalesPeriod;
  before: SalesPeriod;
  beforeLabel: string;
  testId: string;
}) {
  const change = changePercent(period.amountCents, before.amountCents);
  return (
    <Paper sx={{ p: 2, height: '100%' }} data-testid={testId}>
      <Typography color="text.secondary">{title}</Typography>
      <Typography variant="h4" component="p" sx={{ fontWeight: 700, my: 0.5, whiteSpace: 'nowrap' }}>
        {formatCents(period.amountCents)}
      </Typography>
      <Typography variant="body2">
        {plural(period.salesCount, 'venda', 'vendas')} · ticket médio {formatCents(period.averageTicketCents)}
      </Typography>
      <Box sx={{ mt: 1 }}>
        {change === null ? (
          <Typography variant="body2" color="text.secondary">
            Sem vendas {beforeLabel} para comparar
          </Typography>
        ) : (
          <Chip
            size="small"
            color={change > 0 ? 'success' : change < 0 ? 'error' : 'default'}
            label={`${change > 0 ? '+' : ''}${change}% em relação a ${beforeLabel}`}
          />
        )}
      </Box>
    </Paper>
  );
}

function RegisterCard({ cashRegister }: { cashRegister: NonNullable<Home['register']>['cashRegister'] }) {
  return (
    <Figure
      title="Seu caixa"
      to="/dashboard/sale/pdv"
      testId="home-register"
      value={cashRegister ? 'Aberto' : 'Fechado'}
      color={cashRegister ? 'success.main' : 'text.secondary'}
      note={
        cashRegister
          ? `desde ${formatTime(cashRegister.openedAt)} · ${plural(cashRegister.sales.count, 'venda', 'vendas')} · dinheiro ${formatCents(cashRegister.money.expectedCents)}`
          : 'Abra o caixa no PDV para vender'
      }
    />
  );
}

/** A card with one figure that opens where it is worked on. */
function Figure({
  title,
  value,
  note,
  to,
  color,
  testId,
}: {
  title: string;
  value: string;
  note: ReactNode;
  to: string;
  color?: string;
  testId: string;
}) {
  return (
    <Card sx={{ height: '100%' }} data-testid={testId}>
      <CardActionArea component={Link} to={to} sx={{ height: '100%', alignItems: 'flex-start' }}>
        <CardContent>
          <Typography color="text.secondary">{title}</Typography>
          <Typography variant="h4" component="p" sx={{ fontWeight: 700, my: 0.5, color }}>
            {value}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {note}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

function DueLine({
  label,
  figure,
  color,
}: {
  label: string;
  figure: { count: number; amountCents: number };
  color?: string;
}) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1, mt: 0.5 }}>
      <Typography variant="body2">
        {label} ({figure.count})
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600, color: figure.count ? color : undefined }}>
        {formatCents(figure.amountCents)}
      </Typography>
    </Stack>
  );
}

function ReceivablesCard({ receivables }: { receivables: NonNullable<Home['receivables']> }) {
  return (
    <Paper sx={{ p: 2, height: '100%' }} data-testid="home-receivables">
      <Typography color="text.secondary">Crediário</Typography>
      <DueLine label="Vencidas" figure={receivables.overdue} color="error.main" />
      <DueLine label="Vencem hoje" figure={receivables.dueToday} color="warning.main" />
      <DueLine label="Próximos 7 dias" figure={receivables.dueNextDays} />
      <Button component={Link} to="/dashboard/sale?status=pending" size="small" sx={{ mt: 1, ml: -1 }}>
        Ver vendas pendentes
      </Button>
    </Paper>
  );
}

/** Issue 34: the open payables by due date, for who sees Financeiro. */
function PayablesCard({ payables }: { payables: NonNullable<Home['payables']> }) {
  return (
    <Paper sx={{ p: 2, height: '100%' }} data-testid="home-payables">
      <Typography color="text.secondary">Contas a pagar</Typography>
      <DueLine label="Vencidas" figure={payables.overdue} color="error.main" />
      <DueLine label="Vencem hoje" figure={payables.dueToday} color="warning.main" />
      <DueLine label="Próximos 7 dias" figure={payables.dueNextDays} />
      <Button
        component={Link}
        to={
          payables.overdue.count > 0 ? '/dashboard/payable?status=overdue' : '/dashboard/payable?status=open'
        }
        size="small"
        sx={{ mt: 1, ml: -1 }}
      >
        Ver contas a pagar
      </Button>
    </Paper>
  );
}

function SalesDetail({ sales, receivables }: { sales: HomeSales; receivables: Home['receivables'] }) {
  const best = sales.topProducts[0]?.amountCents ?? 0;
  return (
    <>
      <Grid size={{ xs: 12, md: 8 }}>
        <Suspense fallback={<Skeleton variant="rounded" height={300} />}>
          <HomeCharts sales={sales} />
        </Suspense>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        {receivables && (
          <Box sx={{ mb: 2 }}>
            <ReceivablesCard receivables={receivables} />
          </Box>
        )}
        <Paper sx={{ p: 2 }} data-testid="home-top-products">
          <Typography component="h2" variant="h6" gutterBottom>
            Mais vendidos no mês
          </Typography>
          {sales.topProducts.length === 0 ? (
            <Typography color="text.secondary">Nenhuma venda de produto neste mês.</Typography>
          ) : (
            <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {sales.topProducts.map((p) => (
                <li key={p.productId}>
                  <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
                    <Typography variant="body2" noWrap title={p.name}>
                      {p.name}
                    </Typography>
                    <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                      {formatCents(p.amountCents)}
                    </Typography>
                  </Stack>
                  <LinearProgress
                    variant="determinate"
                    value={best ? (p.amountCents * 100) / best : 0}
                    aria-label={`${p.name}: ${soldText(p.quantity)}`}
                    sx={{ height: 6, borderRadius: 3, mt: 0.5 }}
                  />
                  <Typography variant="caption" color="text.secondary">
                    {soldText(p.quantity)}
                  </Typography>
                </li>
              ))}
            </Stack>
          )}
        </Paper>
        <Paper sx={{ p: 2, mt: 2 }} data-testid="home-methods-today">
          <Typography component="h2" variant="h6" gutterBottom>
            Formas de pagamento hoje
          </Typography>
          {sales.byMethodToday.length === 0 ? (
            <Typography color="text.secondary">Nenhuma venda hoje.</Typography>
          ) : (
            sales.byMethodToday.map((m) => (
              <Stack key={m.method} direction="row" sx={{ justifyContent: 'space-between', py: 0.25 }}>
                <Typography variant="body2">{PAYMENT_METHOD_LABELS[m.method]}</Typography>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {formatCents(m.amountCents)}
                </Typography>
              </Stack>
            ))
          )}
        </Paper>
      </Grid>
    </>
  );
}

function Shortcuts({ groups }: { groups: ReturnType<typeof menuFor> }) {
  if (groups.length === 0) return <Alert severity="info">Nada a mostrar por aqui ainda.</Alert>;
  return (
    <Grid container spacing={2}>
      {groups.map(({ group, items }) => (
        <Grid key={group} size={{ xs: 12, sm: 6, md: 4 }}>
          <Card>
            <CardActionArea component={Link} to={items[0].link}>
              <CardContent>
                <Typography component="h2" variant="h6">
                  {group}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {items.map((item) => item.menuLabel ?? item.title).join(' · ')}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
