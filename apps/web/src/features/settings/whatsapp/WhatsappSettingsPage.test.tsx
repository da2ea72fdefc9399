import { WHATSAPP_MESSAGES, type WhatsappInstanceView } from '@balcao/core/whatsapp';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WhatsappSettingsPage from './WhatsappSettingsPage.tsx';

vi.mock('../../auth/session.tsx', () => ({
  useSession: () => ({ user: { id: 1, name: 'Ana', userType: { id: 1 }, client: { id: 1 } } }),
}));

const OPEN: WhatsappInstanceView = {
  instanceName: 'loja-1',
  created: true,
  state: 'open',
  phone: '5511955550001',
  profileName: 'Loja',
  profilePictureUrl: null,
  updatedAt: '2026-01-10T12:00:00.000Z',
};

/** The connected instance; a test message the server refuses for its number. */
function serve() {
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      if (init?.method === 'POST' && url.endsWith('/whatsapp/instance/test')) {
        posts.push(JSON.parse(String(init.body)));
        return json(
          {
            message: WHATSAPP_MESSAGES.notOnWhatsapp,
            issues: [{ path: 'number', message: WHATSAPP_MESSAGES.notOnWhatsapp }],
          },
          400,
        );
      }
      return json(OPEN);
    }),
  );
  return posts;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the WhatsApp settings', () => {
  it("puts a refused test message's issue under the number", { timeout: 20_000 }, async () => {
    const posts = serve();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <WhatsappSettingsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const section = await screen.findByRole('region', { name: 'Mensagem de teste' });
    const number = within(section).getByLabelText('Número (com DDD)');
    const send = within(section).getByRole('button', { name: 'Enviar teste' });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.change(number, { target: { value: '(11) 95555-0009' } });
    await waitFor(() => expect(send).toHaveProperty('disabled', false));
    fireEvent.click(send);
    await waitFor(() => expect(number.getAttribute('aria-invalid')).toBe('true'));
    expect(within(section).getAllByText(WHATSAPP_MESSAGES.notOnWhatsapp).length).toBeGreaterThan(0);
    expect(posts).toEqual([{ number: '5511955550009', text: 'Mensagem de teste do Balcão' }]);
  });

  it('shows a bad number under its field on blur', { timeout: 20_000 }, async () => {
    serve();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <WhatsappSettingsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const section = await screen.findByRole('region', { name: 'Mensagem de teste' });
    const number = within(section).getByLabelText('Número (com DDD)');
    fireEvent.change(number, { target: { value: '123' } });
    fireEvent.blur(number);
    expect(await within(section).findByText(WHATSAPP_MESSAGES.phone)).toBeTruthy();
  });
});

describe('what the Evolution server needs (issue 31 item 9)', () => {
  it('says it on the page and warns when the test message was not stored', { timeout: 20_000 }, async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
        if (init?.method === 'POST' && url.endsWith('/whatsapp/instance/test'))
          return json({ id: 'ABC', stored: false });
        return json(OPEN);
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <WhatsappSettingsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('whatsapp-server-needs')).textContent).toContain(
      'DATABASE_SAVE_DATA_NEW_MESSAGE=true',
    );
    const section = screen.getByRole('region', { name: 'Mensagem de teste' });
    fireEvent.change(within(section).getByLabelText('Número (com DDD)'), {
      target: { value: '(11) 95555-0009' },
    });
    const send = within(section).getByRole('button', { name: 'Enviar teste' });
    await waitFor(() => expect(send).toHaveProperty('disabled', false));
    fireEvent.click(send);
    expect((await within(section).findByTestId('whatsapp-not-stored')).textContent).toBe(
      WHATSAPP_MESSAGES.notStored,
    );
  });
});
