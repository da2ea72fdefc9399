import type { KdsTicket } from '@balcao/core/kds';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTheme } from '../../lib/theme.ts';
import { TicketCard } from './KdsPage.tsx';

const NOW = Date.parse('2026-11-27T21:30:00.000Z');
const SETTINGS = { warnMinutes: 10, lateMinutes: 20, silenceSeconds: 60 };
const ticket = (minutesAgo: number): KdsTicket => ({
  id: 1,
  title: 'Cozinha - Comanda 3 · Mesa 7',
  lines: [],
  items: [
    {
      quantity: 2,
      description: 'Misto Quente',
      variantName: null,
      additionals: [{ name: 'Queijo extra', quantity: 1 }],
      notes: 'um sem picles',
      ready: false,
    },
  ],
  cancel: false,
  createdAt: new Date(NOW - minutesAgo * 60_000).toISOString(),
  printed: false,
  readyAt: null,
});

/** WCAG contrast of a CSS #hex, rgb() or rgba() text colour (blended on the background) on a #hex or rgb() background. */
function contrast(text: string, background: string) {
  const parse = (c: string) => {
    if (!c.startsWith('#')) return (c.match(/[\d.]+/g) ?? []).map(Number);
    const hex = c.length === 4 ? [...c.slice(1)].map((x) => x + x).join('') : c.slice(1);
    return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  };
  const [br, bg, bb] = parse(background);
  const [tr, tg, tb, ta = 1] = parse(text);
  const blend = [tr * ta + br * (1 - ta), tg * ta + bg * (1 - ta), tb * ta + bb * (1 - ta)];
  const lum = ([r, g, b]: number[]) => {
    const ch = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const [a, b] = [lum(blend), lum([br, bg, bb])].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

afterEach(cleanup);

describe('a kitchen card (the walk of issue 35)', () => {
  for (const mode of ['light', 'dark'] as const) {
    for (const [tone, minutes] of [
      ['no prazo', 1],
      ['atenção', 12],
      ['atrasado', 25],
    ] as const) {
      it(`heads with the tab and its table, readable (4.5:1) on the ${tone} colour, ${mode}`, () => {
        render(
          <QueryClientProvider client={new QueryClient()}>
            <ThemeProvider theme={buildTheme(mode)}>
              <TicketCard ticket={ticket(minutes)} settings={SETTINGS} now={NOW} />
            </ThemeProvider>
          </QueryClientProvider>,
        );
        const heading = screen.getByRole('heading', { level: 2, name: 'Comanda 3 · Mesa 7' });
        const head = heading.parentElement as HTMLElement;
        expect(head.textContent).toContain(`${minutes} min`);
        const ratio = contrast(getComputedStyle(head).color, getComputedStyle(head).backgroundColor);
        expect(ratio).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});
