import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorFallback.tsx';

function Counter() {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      cliques {n}
    </button>
  );
}

function Broken(): never {
  throw new Error('quebrou');
}

describe('ErrorBoundary', () => {
  it('keeps what it wraps mounted when the path changes (the shell keeps its state)', () => {
    const { rerender } = render(
      <ErrorBoundary resetKey="/dashboard">
        <Counter />
      </ErrorBoundary>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'cliques 0' }));
    rerender(
      <ErrorBoundary resetKey="/dashboard/sale/command">
        <Counter />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('button', { name: 'cliques 1' })).toBeTruthy();
  });

  it("shows the spec's fallback on an error and leaves it on the next path", () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { rerender } = render(
      <ErrorBoundary resetKey="/a">
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
    expect(screen.getByText('quebrou')).toBeTruthy();
    rerender(
      <ErrorBoundary resetKey="/a">
        <Counter />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
    rerender(
      <ErrorBoundary resetKey="/b">
        <Counter />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('button', { name: 'cliques 0' })).toBeTruthy();
    quiet.mockRestore();
  });
});
