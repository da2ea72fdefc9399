import { COMANDA_PAYMENT_METHODS } from '@balcao/core/comanda';
import { defaultMealVoucherRate } from '@balcao/core/fees';
import { MEAL_VOUCHER_METHODS } from '@balcao/core/sale';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MealVoucherTable } from './MealVouchers.tsx';
import { offeredMethods } from './mealVoucherMethods.ts';

afterEach(cleanup);

const brands = () =>
  MEAL_VOUCHER_METHODS.map((method) =>
    method === 'voucherTicket'
      ? { method, enabled: true, rate: 7.2, settlementDays: 28 }
      : defaultMealVoucherRate(method),
  );

const rowOf = (label: string) => {
  const row = screen
    .getByRole('table', { name: 'Vales-refeição e alimentação' })
    .querySelector(`tr[data-row="${label}"]`);
  if (!row) throw new Error(label);
  return row as HTMLElement;
};

describe('the meal voucher brands of the fee simulator (issue 33)', () => {
  it('shows what a sale in each brand leaves the shop and when, and saves what was typed', () => {
    const onSave = vi.fn();
    render(<MealVoucherTable brands={brands()} canWrite saving={false} onSave={onSave} />);
    expect(rowOf('VR/VA Ticket').textContent).toContain('R$ 92,80 (taxa R$ 7,20)');
    expect(rowOf('VR/VA Ticket').textContent).toContain('28 dias');

    fireEvent.click(screen.getByRole('switch', { name: 'Aceitar VR/VA Alelo no PDV' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Taxa de VR/VA Alelo' }), {
      target: { value: '6,5' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Valor da venda no vale' }), {
      target: { value: '200,00' },
    });
    expect(within(rowOf('VR/VA Alelo')).getByText('R$ 187,00 (taxa R$ 13,00)')).toBeTruthy();
    expect(rowOf('VR/VA Alelo').textContent).toContain('30 dias');

    fireEvent.click(screen.getByRole('button', { name: 'Salvar vales' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    const saved = onSave.mock.calls[0][0].brands;
    expect(saved[0]).toEqual({ method: 'voucherAlelo', enabled: true, rate: 6.5, settlementDays: 30 });
    expect(saved[2]).toEqual({ method: 'voucherTicket', enabled: true, rate: 7.2, settlementDays: 28 });
  });

  it('a rate out of range is not saved: the reason in Portuguese', () => {
    const onSave = vi.fn();
    render(<MealVoucherTable brands={brands()} canWrite saving={false} onSave={onSave} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Prazo de VR/VA Pluxee' }), {
      target: { value: '90' },
    });
    expect(rowOf('VR/VA Pluxee').textContent).toContain('-');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar vales' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Informe um número de dias de 0 a 60');
  });

  it('who may not write sees the brands without the switches working or the button', () => {
    render(<MealVoucherTable brands={brands()} canWrite={false} saving={false} onSave={() => {}} />);
    expect(screen.getByRole('switch', { name: 'Aceitar VR/VA Ticket no PDV' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.queryByRole('button', { name: 'Salvar vales' })).toBeNull();
  });

  it('a payment form offers only the enabled brands (and keeps one already chosen)', () => {
    expect(offeredMethods(COMANDA_PAYMENT_METHODS, ['voucherTicket'])).toEqual([
      'money',
      'pix',
      'pixQrCodeStatic',
      'pixQrCode',
      'debitCard',
      'creditCard',
      'bankTransfer',
      'check',
      'voucherTicket',
    ]);
    expect(offeredMethods(COMANDA_PAYMENT_METHODS, [], 'voucherVr')).toContain('voucherVr');
    expect(offeredMethods(COMANDA_PAYMENT_METHODS, [])).not.toContain('voucherAlelo');
  });
});
