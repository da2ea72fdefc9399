import { formatCents } from '@balcao/core/money';
import Box from '@mui/material/Box';
import { LineChart } from '@mui/x-charts/LineChart';

export type ChartSeries = { label: string; values: (number | null)[] };

/**
 * Net (or price, or buyer total) by installments, one line per compared table. Its own module so the
 * chart library loads only when a simulation shows (lazy in the page).
 */
export default function FeeChart({
  installments,
  series,
  yLabel,
}: {
  installments: number[];
  series: ChartSeries[];
  yLabel: string;
}) {
  return (
    <Box
      role="img"
      aria-label={`Gráfico: ${yLabel} por número de parcelas`}
      sx={{ width: '100%', minWidth: 0 }}
    >
      <LineChart
        height={300}
        skipAnimation
        xAxis={[
          {
            data: installments,
            scaleType: 'point',
            label: 'Parcelas',
            valueFormatter: (n: number) => `${n}x`,
          },
        ]}
        yAxis={[{ valueFormatter: (v: number) => formatCents(Math.round(v * 100)), width: 90 }]}
        series={series.map((s) => ({
          label: s.label,
          data: s.values.map((v) => (v === null ? null : v / 100)),
          valueFormatter: (v: number | null) => (v === null ? '—' : formatCents(Math.round(v * 100))),
          showMark: true,
        }))}
      />
    </Box>
  );
}
