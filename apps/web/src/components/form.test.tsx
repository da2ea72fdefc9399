import { couponInputSchema } from '@balcao/core/coupon';
import { REQUIRED } from '@balcao/core/messages';
import { productCategoryInputSchema } from '@balcao/core/product';
import { DEFAULT_TIME_ZONE, dateIn } from '@balcao/core/time';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useFieldArray } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../lib/api.ts';
import { Form, FormError, FormMoneyField, FormTextField, SubmitButton, useAppForm } from './form.tsx';
import { centsOf } from './MoneyField.tsx';

afterEach(cleanup);

type Save = (values: { name: string; active: boolean }) => Promise<unknown>;

/** A category form, as NamedFormPage builds it: the core schema, one field, a submit button. */
function NameForm({ onSubmit, onError }: { onSubmit: Save; onError?: (message: string) => void }) {
  const form = useAppForm({ schema: productCategoryInputSchema, defaultValues: { name: '', active: true } });
  return (
    <Form form={form} onSubmit={onSubmit} onError={onError} aria-label="Categoria">
      <FormTextField control={form.control} name="name" label="Nome" helperText="Como aparece na loja" />
      <FormError />
      <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
    </Form>
  );
}

const nameInput = () => screen.getByLabelText<HTMLInputElement>('Nome');

/** A promise the test settles by hand, to look at the form while it submits. */
function pending() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Form (the form wrapper)', () => {
  it('shows no error before the field is touched, and the schema message after', async () => {
    render(<NameForm onSubmit={vi.fn()} />);
    expect(screen.getByText('Como aparece na loja')).toBeTruthy();
    expect(screen.queryByText(REQUIRED)).toBeNull();
    await userEvent.click(nameInput());
    await userEvent.tab();
    expect(await screen.findByText(REQUIRED)).toBeTruthy();
    expect(nameInput().getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(nameInput(), 'Bebidas');
    await waitFor(() => expect(screen.queryByText(REQUIRED)).toBeNull());
  });

  it('shows the field errors on submit and does not save', async () => {
    const save = vi.fn();
    render(<NameForm onSubmit={save} />);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(REQUIRED)).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
  });

  it('hands the parsed values over (the schema trims)', async () => {
    const save = vi.fn().mockResolvedValue(undefined);
    render(<NameForm onSubmit={save} />);
    await userEvent.type(nameInput(), '  Bebidas ');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][0]).toEqual({ name: 'Bebidas', active: true });
  });

  it('submits once for a double click, shows the submitting state, then is back', async () => {
    const gate = pending();
    const save = vi.fn().mockReturnValue(gate.promise);
    render(<NameForm onSubmit={save} />);
    await userEvent.type(nameInput(), 'Bebidas');
    await userEvent.dblClick(screen.getByRole('button', { name: 'Salvar' }));
    const busy = await screen.findByRole('button', { name: 'Salvando...' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    // Enter in a field while the save runs submits the form element again: still one save.
    fireEvent.submit(screen.getByRole('form', { name: 'Categoria' }));
    gate.resolve();
    expect(await screen.findByRole('button', { name: 'Salvar' })).toBeTruthy();
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('keeps the focus in the field when the submit button is pressed (a blur error cannot move it)', async () => {
    render(<NameForm onSubmit={vi.fn()} />);
    nameInput().focus();
    const pressed = fireEvent.mouseDown(screen.getByRole('button', { name: 'Salvar' }));
    expect(pressed).toBe(false);
    expect(document.activeElement).toBe(nameInput());
  });

  it('puts the server issues under their fields and tells onError without internal names', async () => {
    const onError = vi.fn();
    const save = vi
      .fn()
      .mockRejectedValue(
        new ApiError(400, 'Use no máximo 80 caracteres (name)', [
          { path: 'name', message: 'Use no máximo 80 caracteres' },
        ]),
      );
    render(<NameForm onSubmit={save} onError={onError} />);
    await userEvent.type(nameInput(), 'Bebidas');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Use no máximo 80 caracteres')).toBeTruthy();
    expect(nameInput().getAttribute('aria-invalid')).toBe('true');
    expect(onError).toHaveBeenCalledWith('Use no máximo 80 caracteres', expect.any(ApiError));
    expect(screen.queryByText(/\(name\)/)).toBeNull();
    // The field's error placed there, the form-level alert is not repeated.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows an issue no field holds, or an answer without issues, as the form error', async () => {
    const save = vi
      .fn()
      .mockRejectedValueOnce(
        new ApiError(409, 'Conflito', [{ path: 'client.id', message: 'Cliente inválido' }]),
      )
      .mockRejectedValueOnce(new ApiError(409, 'Este registro foi alterado por outra pessoa.'));
    render(<NameForm onSubmit={save} />);
    await userEvent.type(nameInput(), 'Bebidas');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Cliente inválido');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Este registro foi alterado por outra pessoa.'),
    );
    expect(nameInput().getAttribute('aria-invalid')).toBe('false');
  });
});

/** A form whose input holds a money text the schema reads as cents (the customer's credit limit). */
const limitSchema = z.object({ creditLimitCents: z.number({ message: 'Valor inválido' }).int().min(0) });
function LimitForm({ onSubmit }: { onSubmit: (values: { creditLimitCents: number }) => unknown }) {
  const form = useAppForm({
    schema: limitSchema,
    defaultValues: { creditLimit: '' },
    toInput: (values: { creditLimit: string }) => ({ creditLimitCents: centsOf(values.creditLimit) }),
    fieldOf: { creditLimitCents: 'creditLimit' },
  });
  return (
    <Form form={form} onSubmit={onSubmit}>
      <FormMoneyField control={form.control} name="creditLimit" label="Limite" />
      <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
    </Form>
  );
}

describe('Form with a rule over several fields', () => {
  it('shows an issue of no field as the form error', async () => {
    const schema = z
      .object({ from: z.string(), to: z.string() })
      .refine((v) => v.from <= v.to, 'O início deve vir antes do fim');
    function RangeForm() {
      const form = useAppForm({ schema, defaultValues: { from: 'b', to: 'a' } });
      return (
        <Form form={form} onSubmit={vi.fn()}>
          <FormTextField control={form.control} name="from" label="Início" />
          <FormError />
          <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
        </Form>
      );
    }
    render(<RangeForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('O início deve vir antes do fim');
  });
});

describe('Form with a money field', () => {
  it('saves a pasted "1.234,56" as cents', async () => {
    const save = vi.fn();
    render(<LimitForm onSubmit={save} />);
    screen.getByLabelText('Limite').focus();
    await userEvent.paste('1.234,56');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ creditLimitCents: 123456 }));
  });

  it('shows a server issue of the cents field under the money input', async () => {
    const save = vi
      .fn()
      .mockRejectedValue(
        new ApiError(422, 'x', [{ path: 'creditLimitCents', message: 'Limite alto demais' }]),
      );
    render(<LimitForm onSubmit={save} />);
    await userEvent.type(screen.getByLabelText('Limite'), '10');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Limite alto demais')).toBeTruthy();
    expect(screen.getByLabelText('Limite').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('Form with a percent field read by a core schema', () => {
  it('saves "12,5" as 12.5 (the comma becomes a dot)', async () => {
    const save = vi.fn();
    function DiscountForm() {
      const form = useAppForm({
        schema: couponInputSchema,
        defaultValues: {
          code: 'PROMO10',
          discountType: 'PERCENTAGE',
          discountValue: '',
          startDate: dateIn(DEFAULT_TIME_ZONE),
          endDate: dateIn(DEFAULT_TIME_ZONE),
          isSingleUse: false,
          maxUsesPerUser: '0',
          minSaleAmount: '0',
        },
      });
      return (
        <Form form={form} onSubmit={save}>
          <FormMoneyField control={form.control} name="discountValue" label="Desconto" suffix="%" />
          <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
        </Form>
      );
    }
    render(<DiscountForm />);
    await userEvent.type(screen.getByLabelText('Desconto'), '12,5');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0][0]).toMatchObject({ code: 'PROMO10', discountValue: 12.5, minSaleAmount: 0 });
  });
});

const rowsSchema = z.object({
  rows: z.array(z.object({ street: z.string().min(1, REQUIRED), city: z.string().min(1, REQUIRED) })),
});

/** A list of rows (addresses) added by a button, as the customer form's addresses. */
function RowsForm({ onSubmit }: { onSubmit: (values: z.output<typeof rowsSchema>) => void }) {
  const form = useAppForm({
    schema: rowsSchema,
    defaultValues: { rows: [] as { street: string; city: string }[] },
  });
  const rows = useFieldArray({ control: form.control, name: 'rows' });
  return (
    <Form form={form} onSubmit={onSubmit} aria-label="Endereços">
      {rows.fields.map((field, index) => (
        <div key={field.id}>
          <FormTextField control={form.control} name={`rows.${index}.street`} label={`Rua ${index + 1}`} />
          <FormTextField control={form.control} name={`rows.${index}.city`} label={`Cidade ${index + 1}`} />
        </div>
      ))}
      <button type="button" onClick={() => rows.append({ street: '', city: '' })}>
        Adicionar
      </button>
      <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
    </Form>
  );
}

describe('Form with a list of rows', () => {
  it('paints no field of a new row red until it is touched or the form submitted', async () => {
    const save = vi.fn();
    render(<RowsForm onSubmit={save} />);
    // Appending focuses the new row's first field (react-hook-form); leaving it would be a touch.
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(screen.getByLabelText('Cidade 1')).toBeTruthy();
    // The list was validated with its new rows, but nothing was reached yet.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryAllByText(REQUIRED)).toHaveLength(0);
    await userEvent.click(screen.getByLabelText('Rua 1'));
    await userEvent.tab();
    await waitFor(() => expect(screen.queryAllByText(REQUIRED)).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryAllByText(REQUIRED)).toHaveLength(2));
    expect(save).not.toHaveBeenCalled();
  });
});
