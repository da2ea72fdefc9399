import type { CampaignListItem } from '@balcao/core/campaign';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { leaveShop, renderAsShop, SLOW, serveShop, shopSession } from '../../test/shop.tsx';
import CampaignListPage from './CampaignListPage.tsx';

const RUNNING: CampaignListItem = {
  id: 3,
  name: 'Black Friday',
  category: null,
  status: 'running',
  scheduledAt: null,
  progress: { total: 10, waiting: 6, sending: 0, success: 4, failed: 0, skipped: 0 },
  createdAt: '2026-11-20T12:00:00.000Z',
  updatedAt: '2026-11-20T12:00:00.000Z',
};

afterEach(() => {
  cleanup();
  leaveShop();
});

describe('the campaign list (issue 30 item 22)', () => {
  it("names each campaign's progress bar (axe aria-progressbar-name)", async () => {
    serveShop(shopSession(), (path) =>
      path.startsWith('/campaign/client/')
        ? { items: [RUNNING], total: 1, page: 1, pageSize: 20 }
        : undefined,
    );
    renderAsShop('/dashboard/campaign', '/dashboard/campaign', <CampaignListPage />);
    const bar = await screen.findByRole('progressbar', { name: 'Progresso do envio de Black Friday' }, SLOW);
    expect(bar.getAttribute('aria-valuetext')).toBe('4 de 10 enviadas');
  }, 30_000);
});
