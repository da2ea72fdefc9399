import type { HomeSales } from '@balcao/core/home';
import { formatCents } from '@balcao/core/money';
import { PAYMENT_METHOD_LABELS } from '@balcao/core/sale';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { ptBRLocaleText } from '@mui/x-charts/locales';
import { PieChart } from '@mui/x-charts/PieChart';

const dayLabel = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}`;
const money = (value: number | null) => (value === null ? '' : formatCents(value));

/**
 * The home's charts (MUI X Charts: MUI's own, themed with the app, light and dark): sales of the last
 * 30 days and the month's payment methods. Loaded apart from the home's figures, which show first.
 */
export default function HomeCharts({ sales }: { sales: HomeSales }) {
  return (
    <ChartsLocalizationProvider localeText={ptBRLocaleText}>
      <Paper sx={{ p: 2 }} data-testid="home-days-chart">
        <Typography component="h2" variant="h6">
          Vendas dos últimos 30 dias
        </Typography>
        <BarChart
          height={260}
          margin={{ left: 8, right: 8 }}
          xAxis={[{ scaleType: 'band', data: sales.days.map((d) => dayLabel(d.day)) }]}
          yAxis={[{ valueFormatter: (v: number) => formatCents(v).replace(/,00$/, ''), width: 72 }]}
          series={[
            {
              data: sales.days.map((d) => d.amountCents),
              label: 'Vendas',
              valueFormatter: money,
            },
          ]}
          hideLegend
        />
      </Paper>
      <Paper sx={{ p: 2, mt: 2 }} data-testid="home-methods-chart">
        <Typography component="h2" variant="h6">
          Formas de pagamento no mês
        </Typography>
        <PieChart
          height={240}
          series={[
            {
              innerRadius: 50,
              paddingAngle: 1,
              cornerRadius: 4,
              data: sales.byMethodMonth.map((m) => ({
                id: m.method,
                value: m.amountCents,
                label: PAYMENT_METHOD_LABELS[m.method],
              })),
              valueFormatter: (item: { value: number }) => formatCents(item.value),
            },
          ]}
        />
      </Paper>
    </ChartsLocalizationProvider>
  );
}
