import { toNestErrors } from '@hookform/resolvers';
import Alert from '@mui/material/Alert';
import Box, { type BoxProps } from '@mui/material/Box';
import Button, { type ButtonProps } from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { type FormEvent, type ReactNode, useRef } from 'react';
import {
  type Control,
  Controller,
  type ControllerFieldState,
  type ControllerRenderProps,
  type DefaultValues,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  FormProvider,
  type Resolver,
  type UseFormReturn,
  useForm,
  useFormState,
} from 'react-hook-form';
import type { ZodType } from 'zod';
import { ApiError, errorMessage } from '../lib/api.ts';
import { MoneyField, QuantityField } from './MoneyField.tsx';

/**
 * The one way to build a form (every form but login, whose bundle stays small): react-hook-form with a
 * core zod schema as resolver, server issues mapped onto their fields, a submitting state, and errors
 * shown once a field is touched or the form submitted.
 *
 *   const form = useAppForm({ schema, defaultValues });
 *   <Form form={form} onSubmit={save} onError={(message) => show(...)} aria-label="...">
 *     <FormTextField control={form.control} name="name" label="Nome" />
 *     <FormError />
 *     <SubmitButton busyLabel="Salvando...">Salvar</SubmitButton>
 *   </Form>
 *
 * Where no form element fits (a table row), `form.handleSubmit` with `showServerError` in its catch
 * does the same (features/product/components/VariantsSection.tsx).
 */
type AppFormOptions<V extends FieldValues, Out> = {
  /** The core schema that validates the form; its output is what onSubmit receives. */
  schema: ZodType<Out>;
  defaultValues: DefaultValues<V>;
  /**
   * What the schema parses, when the inputs hold something else (texts the schema reads as cents,
   * an empty select): the form values by default.
   */
  toInput?: (values: V) => unknown;
  /**
   * Schema or server paths that differ from a field's name (e.g. creditLimitCents -> creditLimit): a
   * map, or a function for paths with an index (items.2.unitCostCents -> items.2.unitCost).
   */
  fieldOf?: Partial<Record<string, FieldPath<V>>> | ((path: string) => string);
  /**
   * Rules the core schema cannot see because they need what only the screen knows (a picked
   * product's variants): issues with form field paths, checked with the schema.
   */
  check?: (values: V) => { path: string; message: string }[];
};

/** Where the form's own error lives (shown by `FormError`). */
const FORM_ERROR = 'root.form';

export type AppForm<V extends FieldValues, Out> = UseFormReturn<V, unknown, Out> & {
  /** Renames a schema/server path to the form field it belongs to. */
  fieldOf: (path: string) => string;
};

/** A react-hook-form form validated by a core schema; see `Form` for submitting it. */
export function useAppForm<V extends FieldValues, Out = V>({
  schema,
  defaultValues,
  toInput,
  fieldOf = {},
  check,
}: AppFormOptions<V, Out>): AppForm<V, Out> {
  const rename = (path: string) => (typeof fieldOf === 'function' ? fieldOf(path) : (fieldOf[path] ?? path));
  const resolver: Resolver<V, unknown, Out> = async (values, _context, options) => {
    const result = schema.safeParse(toInput ? toInput(values) : values);
    const extra = check?.(values) ?? [];
    if (result.success && extra.length === 0) return { values: result.data, errors: {} };
    const flat: Record<string, { type: string; message: string }> = {};
    // An issue of no field (a rule over several) is the form's own error.
    const place = (path: string) => (path && hasField(values, path) ? path : FORM_ERROR);
    for (const issue of result.success ? [] : result.error.issues) {
      flat[place(rename(issue.path.join('.')))] ??= { type: issue.code, message: issue.message };
    }
    for (const issue of extra) flat[place(issue.path)] ??= { type: 'custom', message: issue.message };
    return { values: {}, errors: toNestErrors(flat as FieldErrors, options) as FieldErrors<V> };
  };
  const form = useForm<V, unknown, Out>({ defaultValues, resolver, mode: 'onTouched' });
  return Object.assign(form, { fieldOf: rename });
}

/**
 * The message to show for a failed save: the first issue's own message when the server sent issues
 * (the answer's summary may name an internal field), else the server's message.
 */
function formErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.issues.length > 0) return error.issues[0].message;
  return errorMessage(error);
}

function hasField(values: unknown, path: string): boolean {
  let node = values;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/**
 * Puts a failed save's issues under their fields; an issue no field shows (and an answer without
 * issues) becomes the form's own error, which `FormError` shows. Returns the message for a snackbar.
 */
export function showServerError<V extends FieldValues, Out>(form: AppForm<V, Out>, error: unknown): string {
  const message = formErrorMessage(error);
  const issues = error instanceof ApiError ? error.issues : [];
  let unplaced = issues.length === 0 ? message : undefined;
  for (const issue of issues) {
    const field = form.fieldOf(issue.path);
    if (issue.path && hasField(form.getValues(), field)) {
      form.setError(field as FieldPath<V>, { type: 'server', message: issue.message });
    } else unplaced ??= issue.message;
  }
  if (unplaced) form.setError(FORM_ERROR, { type: 'server', message: unplaced });
  return message;
}

type FormProps<V extends FieldValues, Out> = Omit<BoxProps<'form'>, 'onSubmit' | 'onError' | 'component'> & {
  form: AppForm<V, Out>;
  /** Saves the parsed values; a throw (an ApiError) is mapped onto the fields. */
  onSubmit: (values: Out) => Promise<unknown> | unknown;
  /** Told the message of a failed save (after the issues are placed), e.g. for a snackbar. */
  onError?: (message: string, error: unknown) => void;
  children: ReactNode;
};

/** The form element: validates, submits once per click, and maps a failed save onto its fields. */
export function Form<V extends FieldValues, Out>({
  form,
  onSubmit,
  onError,
  children,
  ...props
}: FormProps<V, Out>) {
  // One save at a time: a second click or Enter before the first save ends is ignored.
  const busy = useRef(false);
  const save = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      const message = showServerError(form, error);
      onError?.(message, error);
    }
  });
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    // A form in a dialog is a child of the page's form in React's tree: its submit stays its own.
    event.stopPropagation();
    if (busy.current) {
      event.preventDefault();
      return;
    }
    busy.current = true;
    try {
      await save(event);
    } finally {
      busy.current = false;
    }
  };
  return (
    <FormProvider {...form}>
      <Box component="form" noValidate onSubmit={submit} {...props}>
        {children}
      </Box>
    </FormProvider>
  );
}

/** The form's own error: a rule over several fields, or a failed save no field shows. */
export function FormError() {
  const { errors } = useFormState();
  const message = errors.root?.form?.message;
  return message ? <Alert severity="error">{message}</Alert> : null;
}

/**
 * The submit button: disabled and showing `busyLabel` while the form submits. A press does not take
 * the focus: the field being typed in keeps it until the click, so its blur error cannot move the
 * button away between press and release and swallow the click (one click submits).
 */
export function SubmitButton({
  busyLabel,
  disabled,
  children,
  ...props
}: Omit<ButtonProps, 'type'> & { busyLabel: string }) {
  const { isSubmitting } = useFormState();
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={disabled || isSubmitting}
      onMouseDown={(event) => event.preventDefault()}
      {...props}
    >
      {isSubmitting ? busyLabel : children}
    </Button>
  );
}

type Bound<V extends FieldValues, Out> = { control: Control<V, unknown, Out>; name: FieldPath<V> };

/**
 * The error a field shows: only once the field was touched or the form submitted, or when the server
 * placed it. A rule checked for the whole form or a list (a new address validated with its list) does
 * not paint fields the user has not reached yet.
 */
function useShownError<V extends FieldValues, Out>(
  fieldState: ControllerFieldState,
  // The form's own control: a field may sit outside <Form> (a table row saved by handleSubmit).
  control: Control<V, unknown, Out>,
): string | undefined {
  const { isSubmitted } = useFormState<V, Out>({ control });
  const error = fieldState.error;
  if (!error) return undefined;
  return fieldState.isTouched || isSubmitted || error.type === 'server' ? (error.message ?? ' ') : undefined;
}

/** A switch (`checkbox`: a checkbox) bound to a yes/no form field, with its `label`. */
export function FormSwitch<V extends FieldValues, Out>({
  control,
  name,
  label,
  disabled,
  checkbox = false,
}: Bound<V, Out> & { label: ReactNode; disabled?: boolean; checkbox?: boolean }) {
  const Toggle = checkbox ? Checkbox : Switch;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          control={
            <Toggle checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} />
          }
          label={label}
          disabled={disabled}
        />
      )}
    />
  );
}

/** A text input bound to a form field, with its error (or `helperText`) under it. */
export function FormTextField<V extends FieldValues, Out>({
  control,
  name,
  mask,
  helperText,
  inputRef,
  ...props
}: Omit<TextFieldProps, 'name'> & Bound<V, Out> & { mask?: (text: string) => string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <ShownError fieldState={fieldState} control={control}>
          {(error) => (
            <TextField
              fullWidth
              {...props}
              name={field.name}
              value={field.value ?? ''}
              onChange={(e) => field.onChange(mask ? mask(e.target.value) : e.target.value)}
              onBlur={field.onBlur}
              inputRef={(el: HTMLInputElement | null) => {
                field.ref(el);
                if (typeof inputRef === 'function') inputRef(el);
                else if (inputRef) (inputRef as { current: unknown }).current = el;
              }}
              error={Boolean(error)}
              helperText={error ?? helperText}
            />
          )}
        </ShownError>
      )}
    />
  );
}

/** Renders `children` with the error its field shows now (see `useShownError`). */
function ShownError<V extends FieldValues, Out>({
  fieldState,
  control,
  children,
}: {
  fieldState: ControllerFieldState;
  control: Control<V, unknown, Out>;
  children: (error: string | undefined) => ReactNode;
}) {
  return children(useShownError(fieldState, control));
}

type BoundText<V extends FieldValues, Out> = Omit<TextFieldProps, 'name' | 'value' | 'onChange'> &
  Bound<V, Out>;

/** What a controlled input takes from its field: value, change, blur, ref, and the shown error (or `helperText`). */
function inputOf(
  { field }: { field: Pick<ControllerRenderProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'ref'> },
  error: string | undefined,
  helperText: ReactNode,
) {
  return {
    name: field.name,
    value: field.value ?? '',
    onChange: field.onChange,
    onBlur: field.onBlur,
    inputRef: field.ref,
    error: Boolean(error),
    helperText: error ?? helperText,
  };
}

/** A money (R$) or percent (%) input bound to a form field holding its text ("12,34"). */
export function FormMoneyField<V extends FieldValues, Out>({
  control,
  name,
  helperText,
  ...props
}: BoundText<V, Out> & { suffix?: '%' }) {
  return (
    <Controller
      control={control}
      name={name}
      render={(bound) => (
        <ShownError fieldState={bound.fieldState} control={control}>
          {(error) => <MoneyField {...props} {...inputOf(bound, error, helperText)} />}
        </ShownError>
      )}
    />
  );
}

/** A quantity input (kg, cm, un) bound to a form field holding its text ("1,250"). */
export function FormQuantityField<V extends FieldValues, Out>({
  control,
  name,
  helperText,
  ...props
}: BoundText<V, Out> & { suffix: string; places?: number }) {
  return (
    <Controller
      control={control}
      name={name}
      render={(bound) => (
        <ShownError fieldState={bound.fieldState} control={control}>
          {(error) => <QuantityField {...props} {...inputOf(bound, error, helperText)} />}
        </ShownError>
      )}
    />
  );
}
