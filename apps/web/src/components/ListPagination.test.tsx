import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ListPagination } from './ListPagination.tsx';

afterEach(cleanup);

const noop = () => {};

describe('ListPagination', () => {
  it('shows an exact total, and "mais de" a capped one (a broad product search)', () => {
    render(<ListPagination total={1000} page={2} pageSize={20} onPage={noop} onPageSize={noop} capped />);
    expect(screen.getByText('21–40 de mais de 1.000')).toBeTruthy();
    // The last page of the capped total can be reached; the next button stops there.
    cleanup();
    render(<ListPagination total={1000} page={50} pageSize={20} onPage={noop} onPageSize={noop} capped />);
    expect(screen.getByText('981–1.000 de mais de 1.000')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Próxima página' }).hasAttribute('disabled')).toBe(true);
    cleanup();
    render(<ListPagination total={7} page={1} pageSize={20} onPage={noop} onPageSize={noop} />);
    expect(screen.getByText('1–7 de 7')).toBeTruthy();
  });
});
