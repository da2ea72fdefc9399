import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulationResults } from './SimulationResults.tsx';
import { simulate } from './simulation.ts';
import { feeSources } from './sources.ts';

afterEach(cleanup);

describe('the detail table of a table without a debit rate (issue 30)', () => {
  it.each(['receive', 'charge'] as const)(
    'says "Não oferecido nesta tabela" on the debit row (%s)',
    (mode) => {
      const all = feeSources([]);
      const sources = ['p:mercadopago-now', 'p:sumup-d1'].map((id) => all.find((s) => s.id === id)!);
      const rows = simulate(
        sources.map((s) => s.rates),
        mode,
        100_000,
      );
      render(<SimulationResults sources={sources} rows={rows} mode={mode} />);
      const table = screen.getByRole('table', { name: 'Simulação: Mercado Pago Point na hora (modelo)' });
      const debit = table.querySelector('tr[data-row="Débito"]');
      expect(debit?.textContent).toBe('DébitoNão oferecido nesta tabela');
    },
  );
});
