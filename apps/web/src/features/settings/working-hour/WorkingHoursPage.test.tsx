import type { WorkingHoursSettings } from '@balcao/core/workingHours';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { leaveShop, renderAsShop, SLOW, serveShop, shopSession } from '../../../test/shop.tsx';
import WorkingHoursPage from './WorkingHoursPage.tsx';

/** Paused until 13:30 UTC: 09:30 on a Manaus shop's clock, whatever the device's zone. */
const HOURS: WorkingHoursSettings = {
  weekly: [[], [], [], [], [], [], []],
  exceptions: [],
  pause: { paused: true, reason: 'Reforma', until: '2026-12-01T13:30:00.000Z' },
  updatedAt: '2026-11-20T12:00:00.000Z',
  updatedBy: { id: 1, name: 'Ana' },
};

afterEach(() => {
  cleanup();
  leaveShop();
});

describe("the pause's end is read and written on the shop's clock", () => {
  it('shows and saves it in Manaus for a Manaus shop, not on the browser clock', async () => {
    const saved: { pause: { until: string | null } }[] = [];
    serveShop(shopSession('America/Manaus'), (path, init) => {
      if (path === '/settings/working-hour' && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return { ...HOURS, pause: body.pause };
      }
      if (path === '/settings/working-hour') return HOURS;
      if (path === '/settings/working-hour/status') return { enabled: false };
    });
    renderAsShop(
      '/dashboard/settings/working-hour',
      '/dashboard/settings/working-hour',
      <WorkingHoursPage />,
    );
    const until = (await screen.findByLabelText('Até', {}, SLOW)) as HTMLInputElement;
    await waitFor(() => expect(until.value).toBe('2026-12-01T09:30'), SLOW);

    fireEvent.change(until, { target: { value: '2026-12-02T08:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(saved).toHaveLength(1), SLOW);
    expect(saved[0].pause.until).toBe('2026-12-02T12:00:00.000Z');
  }, 30_000);
});
