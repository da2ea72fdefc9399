import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotificationDrawer } from './NotificationDrawer.tsx';

afterEach(cleanup);

describe('the bell (the walk of issue 35)', () => {
  it('opens a dialog named "Notificações" that lists the calls from the tables', () => {
    render(
      <NotificationDrawer
        open
        onClose={vi.fn()}
        onClear={vi.fn()}
        items={[
          {
            id: 1,
            message: 'Mesa 15 chamou o garçom',
            alertColor: 'warning',
            at: new Date('2026-11-27T21:31:00.000Z'),
          },
        ]}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Notificações' });
    expect(within(dialog).getByText('Mesa 15 chamou o garçom')).toBeTruthy();
  });
});
