import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { centsOf, centsToInput, MoneyField, QuantityField } from './MoneyField.tsx';

afterEach(cleanup);

/** A money input holding its own text, as a form does; `shown` mirrors the saved cents. */
function Money({ suffix }: { suffix?: '%' }) {
  const [text, setText] = useState('');
  return (
    <>
      <MoneyField label="Valor" value={text} onChange={setText} suffix={suffix} />
      <output>{String(centsOf(text))}</output>
    </>
  );
}

function Quantity({ places }: { places?: number }) {
  const [text, setText] = useState('');
  return <QuantityField label="Quantidade" value={text} onChange={setText} suffix="kg" places={places} />;
}

const input = () => screen.getByLabelText<HTMLInputElement>(/Valor|Quantidade/);

describe('MoneyField', () => {
  it('keeps only digits and one comma, with at most 2 decimals', async () => {
    render(<Money />);
    await userEvent.type(input(), '12a,3,45x');
    expect(input().value).toBe('12,34');
    expect(screen.getByRole('status').textContent).toBe('1234');
  });

  it('shows the R$ prefix, or % for a percent', () => {
    const { unmount } = render(<Money />);
    expect(screen.getByText('R$')).toBeTruthy();
    unmount();
    render(<Money suffix="%" />);
    expect(screen.getByText('%')).toBeTruthy();
    expect(screen.queryByText('R$')).toBeNull();
  });

  it('takes a dot typed on a numeric keypad as the comma', async () => {
    render(<Money />);
    await userEvent.type(input(), '7.5');
    expect(input().value).toBe('7,5');
    expect(screen.getByRole('status').textContent).toBe('750');
  });

  it('keeps a pasted "1.234,56" as 1234,56 and saves it as cents', async () => {
    render(<Money />);
    input().focus();
    await userEvent.paste('1.234,56');
    expect(input().value).toBe('1234,56');
    expect(screen.getByRole('status').textContent).toBe('123456');
  });

  it('starts a leading comma with a zero', () => {
    render(<Money />);
    fireEvent.change(input(), { target: { value: ',5' } });
    expect(input().value).toBe('0,5');
  });

  it('asks phones for the decimal keypad', () => {
    render(<Money />);
    expect(input().getAttribute('inputmode')).toBe('decimal');
  });
});

describe('QuantityField', () => {
  it('allows 3 decimals and shows the unit', async () => {
    render(<Quantity />);
    await userEvent.type(input(), '1,2505');
    expect(input().value).toBe('1,250');
    expect(screen.getByText('kg')).toBeTruthy();
  });

  it('allows fewer decimals when told', async () => {
    render(<Quantity places={2} />);
    await userEvent.type(input(), '3,456');
    expect(input().value).toBe('3,45');
  });
});

describe('centsOf / centsToInput', () => {
  it('turns the text into cents: empty is 0, junk NaN', () => {
    expect(centsOf('12,34')).toBe(1234);
    expect(centsOf('1.234,56')).toBe(123456);
    expect(centsOf('')).toBe(0);
    expect(centsOf('1,234')).toBeNaN();
  });

  it('shows cents as the input text', () => {
    expect(centsToInput(123456)).toBe('1234,56');
    expect(centsToInput(5)).toBe('0,05');
  });
});
