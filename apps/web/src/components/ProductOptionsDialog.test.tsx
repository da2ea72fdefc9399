import type { Product, ProductAdditionalGroup } from '@balcao/core/product';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ProductChoice, ProductOptionsDialog } from './ProductOptionsDialog.tsx';

afterEach(cleanup);

/** The sauces every fried side shares (one add-on group on several products). */
const SAUCES: ProductAdditionalGroup = {
  id: 1,
  name: 'Molhos',
  minQuantity: 0,
  maxQuantity: 2,
  active: true,
  productCount: 3,
  updatedAt: '2026-11-20T12:00:00.000Z',
  items: [
    { id: 11, name: 'Mostarda e mel', priceCents: 150, active: true, position: 1 },
    { id: 12, name: 'Barbecue', priceCents: 150, active: true, position: 2 },
  ],
};

const product = (id: number, name: string): Product =>
  ({ id, name, variants: [], additionalGroups: [SAUCES] }) as unknown as Product;
const BATATA = product(1, 'Batata Frita');
const ONION = product(2, 'Onion Rings');
const BURGER = product(3, 'X-Burger');

const mustard = () => screen.getByRole('checkbox', { name: /Mostarda e mel/ }) as HTMLInputElement;

/** The PDV's way of using the dialog: one instance, given a product to open and null to close. */
function Harness({ picked, onChoose }: { picked: Product | null; onChoose: (c: ProductChoice) => void }) {
  return (
    <ProductOptionsDialog product={picked} variant={null} onChoose={onChoose} onClose={() => undefined} />
  );
}

describe('ProductOptionsDialog (issue 30 item 1: add-ons never carry over)', () => {
  it('opens the next product blank after an add-on was ticked and added', () => {
    const onChoose = vi.fn();
    const view = render(<Harness picked={BATATA} onChoose={onChoose} />);
    fireEvent.click(mustard());
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(onChoose).toHaveBeenCalledWith({
      variant: null,
      additionals: [{ id: 11, name: 'Mostarda e mel', priceCents: 150, quantity: 1 }],
    });
    view.rerender(<Harness picked={null} onChoose={onChoose} />);
    view.rerender(<Harness picked={ONION} onChoose={onChoose} />);
    expect(mustard().checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(onChoose).toHaveBeenLastCalledWith({ variant: null, additionals: [] });
  });

  it('opens blank after Cancelar, for another product and for the same one', () => {
    const view = render(<Harness picked={ONION} onChoose={vi.fn()} />);
    fireEvent.click(mustard());
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    view.rerender(<Harness picked={null} onChoose={vi.fn()} />);
    view.rerender(<Harness picked={BURGER} onChoose={vi.fn()} />);
    expect(mustard().checked).toBe(false);
    fireEvent.click(mustard());
    view.rerender(<Harness picked={null} onChoose={vi.fn()} />);
    view.rerender(<Harness picked={BURGER} onChoose={vi.fn()} />);
    expect(mustard().checked).toBe(false);
  });

  it('opens blank when one product follows another without closing in between', () => {
    const view = render(<Harness picked={BATATA} onChoose={vi.fn()} />);
    fireEvent.click(mustard());
    view.rerender(<Harness picked={BURGER} onChoose={vi.fn()} />);
    expect(mustard().checked).toBe(false);
  });
});

describe('ProductOptionsDialog: "exactly 1" choices (issue 30 item 13)', () => {
  const POINT: ProductAdditionalGroup = {
    ...SAUCES,
    id: 2,
    name: 'Ponto da carne',
    minQuantity: 1,
    maxQuantity: 1,
    items: [
      { id: 21, name: 'Mal passado', priceCents: 0, active: true, position: 1 },
      { id: 22, name: 'Ao ponto', priceCents: 0, active: true, position: 2 },
    ],
  };
  const burger = {
    id: 4,
    name: 'X-Burger',
    variants: [],
    additionalGroups: [POINT, SAUCES],
  } as unknown as Product;

  it('shows them as radios (one picked at a time) and keeps the others as checkboxes', () => {
    const onChoose = vi.fn();
    render(<Harness picked={burger} onChoose={onChoose} />);
    const group = screen.getByRole('radiogroup', { name: 'Ponto da carne' });
    expect(group).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Mal passado' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Ao ponto' }));
    expect((screen.getByRole('radio', { name: 'Mal passado' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('checkbox', { name: /Mostarda e mel/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(onChoose).toHaveBeenCalledWith({
      variant: null,
      additionals: [{ id: 22, name: 'Ao ponto', priceCents: 0, quantity: 1 }],
    });
  });
});
