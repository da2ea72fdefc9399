import Alert from '@mui/material/Alert';
import { getContrastRatio, ThemeProvider } from '@mui/material/styles';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTheme } from './theme.ts';

afterEach(cleanup);

/** A computed rgb()/rgba() colour blended on an opaque background, as a hex for getContrastRatio. */
function onBackground(color: string, background: string) {
  const toRgb = (c: string) => {
    if (c.startsWith('#')) {
      const hex = c.length === 4 ? [...c.slice(1)].map((x) => x + x).join('') : c.slice(1);
      return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).concat(1);
    }
    const [r, g, b, a = 1] = (c.match(/[\d.]+/g) ?? []).map(Number);
    return [r, g, b, a];
  };
  const [r, g, b, a] = toRgb(color);
  const [br, bg, bb] = toRgb(background);
  const mix = [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a)];
  return `rgb(${mix.map(Math.round).join(', ')})`;
}

describe('the filled alerts of the snackbars (the walk of issue 35)', () => {
  for (const mode of ['light', 'dark'] as const) {
    for (const severity of ['success', 'info', 'warning', 'error'] as const) {
      it(`"${severity}" reads at 4.5:1 in ${mode}`, () => {
        render(
          <ThemeProvider theme={buildTheme(mode)}>
            <Alert variant="filled" severity={severity}>
              Não foi possível associar
            </Alert>
          </ThemeProvider>,
        );
        const alert = screen.getByRole('alert');
        const { color, backgroundColor } = getComputedStyle(alert);
        expect(
          getContrastRatio(onBackground(color, backgroundColor), backgroundColor),
        ).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});
