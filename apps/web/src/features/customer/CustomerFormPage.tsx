import { BRAZIL_STATES, maskCep, normalizeCep } from '@balcao/core/cep';
import {
  type CustomerDetail,
  type CustomerInput,
  customerInputSchema,
  PERSON_TYPE_LABELS,
  type PersonType,
} from '@balcao/core/customer';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { formatCents, maskDecimalInput, parseMoneyToCents } from '@balcao/core/money';
import { can, WRITE } from '@balcao/core/routes';
import { toNestErrors } from '@hookform/resolvers';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  type Control,
  Controller,
  type FieldErrors,
  type FieldPath,
  type Resolver,
  type UseFormSetValue,
  useFieldArray,
  useForm,
  useWatch,
} from 'react-hook-form';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { FeedbackSnackbar, useFeedback } from '../../components/FeedbackSnackbar.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useIdFromPath } from '../../lib/useIdFromPath.ts';
import { useSession } from '../auth/session.tsx';
import { fetchCep, useCheckWhatsapp, useCreateCustomer, useCustomer, useUpdateCustomer } from './api.ts';
import { DelinquencyBadge, WhatsappBadge } from './CustomerBadges.tsx';

const LIST = '/dashboard/customer';

type AddressForm = {
  id?: number;
  label: string;
  zipCode: string;
  street: string;
  number: string;
  complement: string;
  neighborhood: string;
  city: string;
  state: string;
  isDefault: boolean;
};

/** What the inputs show: masked texts, the credit limit as "1500,00". */
type FormValues = {
  personType: PersonType;
  name: string;
  document: string;
  email: string;
  phone: string;
  birthDate: string;
  creditLimit: string;
  notes: string;
  active: boolean;
  addresses: AddressForm[];
};

const emptyAddress = (isDefault: boolean): AddressForm => ({
  label: '',
  zipCode: '',
  street: '',
  number: '',
  complement: '',
  neighborhood: '',
  city: '',
  state: '',
  isDefault,
});

function toFormValues(c?: CustomerDetail): FormValues {
  if (!c) {
    return {
      personType: 'person',
      name: '',
      document: '',
      email: '',
      phone: '',
      birthDate: '',
      creditLimit: '',
      notes: '',
      active: true,
      addresses: [],
    };
  }
  return {
    personType: c.personType,
    name: c.name,
    document: c.document ? maskDocument(c.document) : '',
    email: c.email ?? '',
    phone: c.phone ? maskPhone(c.phone) : '',
    birthDate: c.birthDate ?? '',
    creditLimit: c.creditLimitCents ? (c.creditLimitCents / 100).toFixed(2).replace('.', ',') : '',
    notes: c.notes ?? '',
    active: c.active,
    addresses: c.addresses.map((a) => ({
      id: a.id,
      label: a.label ?? '',
      zipCode: maskCep(a.zipCode),
      street: a.street,
      number: a.number,
      complement: a.complement ?? '',
      neighborhood: a.neighborhood,
      city: a.city,
      state: a.state,
      isDefault: a.isDefault,
    })),
  };
}

function toInput(v: FormValues): CustomerInput {
  const cents = v.creditLimit.trim() === '' ? 0 : parseMoneyToCents(v.creditLimit);
  return {
    ...v,
    creditLimitCents: Number.isNaN(cents) ? -1 : cents,
    addresses: v.addresses.map(({ id, ...a }) => (id ? { id, ...a } : a)),
  };
}

/** The shared core schema validates the form; its field names map back to the inputs. */
const resolver: Resolver<FormValues> = async (values, _context, options) => {
  const result = customerInputSchema.safeParse(toInput(values));
  if (result.success) return { values, errors: {} };
  const flat: Record<string, { type: string; message: string }> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.').replace(/^creditLimitCents$/, 'creditLimit');
    flat[path] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors: toNestErrors(flat as FieldErrors, options) };
};

/** Customer form at /dashboard/customer/new and /dashboard/customer/edit/{id}. */
export default function CustomerFormPage() {
  const location = useLocation();
  const id = useIdFromPath('/dashboard/customer/edit');
  const isEdit = id !== undefined;
  const validId = isEdit && !Number.isNaN(id);
  const customer = useCustomer(validId ? id : undefined);

  let body: ReactNode;
  if (isEdit && !validId) body = <Alert severity="error">Cliente não encontrado</Alert>;
  else if (isEdit && customer.isPending) body = <Loading />;
  else if (isEdit && customer.isError) body = <Alert severity="error">{errorMessage(customer.error)}</Alert>;
  else body = <CustomerForm key={location.pathname} customer={isEdit ? customer.data : undefined} />;

  return (
    <Box sx={{ maxWidth: 960 }}>
      <Typography component="h1" variant="h5" sx={{ mb: 3 }}>
        {isEdit ? 'Editar cliente' : 'Novo cliente'}
      </Typography>
      {body}
    </Box>
  );
}

function CustomerForm({ customer }: { customer?: CustomerDetail }) {
  const { user } = useSession();
  const canWrite = can(user?.userType.id, WRITE.customers);
  const navigate = useNavigate();
  const create = useCreateCustomer();
  const update = useUpdateCustomer();
  const whatsappCheck = useCheckWhatsapp();
  const { state: feedback, show, close } = useFeedback();
  const [current, setCurrent] = useState(customer);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues>({ defaultValues: toFormValues(customer), resolver, mode: 'onTouched' });
  const { control, handleSubmit, setError, setValue, reset, formState } = form;
  const addresses = useFieldArray({ control, name: 'addresses' });
  const personType = useWatch({ control, name: 'personType' });
  const isCompany = personType === 'company';

  const onSubmit = async (values: FormValues) => {
    setFormError(null);
    const data = customerInputSchema.parse(toInput(values));
    try {
      if (current) {
        const saved = await update.mutateAsync({
          id: current.id,
          body: { ...data, updatedAt: current.updatedAt },
        });
        setCurrent(saved);
        reset(toFormValues(saved));
        show({ severity: 'success', title: 'Cliente atualizado com sucesso' });
      } else {
        await create.mutateAsync(data);
        navigate(LIST, { state: { message: 'Cliente cadastrado com sucesso' } });
      }
    } catch (error) {
      if (error instanceof ApiError) {
        for (const issue of error.issues) {
          if (issue.path)
            setError(issue.path as FieldPath<FormValues>, { type: 'server', message: issue.message });
        }
      }
      setFormError(errorMessage(error));
      show({
        severity: 'error',
        title: current ? 'Erro ao editar cliente' : 'Erro ao cadastrar cliente',
        message: errorMessage(error),
      });
    }
  };

  const setDefault = (index: number) => {
    addresses.fields.forEach((_, i) => {
      setValue(`addresses.${i}.isDefault`, i === index, { shouldDirty: true });
    });
  };

  const addressesError =
    (formState.errors.addresses as { message?: string; root?: { message?: string } } | undefined)?.root
      ?.message ?? (formState.errors.addresses as { message?: string } | undefined)?.message;

  return (
    <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)} aria-label="Cadastro de cliente">
      <Stack spacing={2}>
        {!canWrite && (
          <Alert severity="info">
            Você pode ver este cadastro, mas o seu tipo de usuário não pode alterá-lo.
          </Alert>
        )}
        {current && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }} useFlexGap>
            <DelinquencyBadge isDelinquent={current.isDelinquent} />
            <WhatsappBadge valid={current.whatsappValid} hasPhone={Boolean(current.phone)} />
            {current.phone && canWrite && (
              <Button
                size="small"
                disabled={whatsappCheck.isPending}
                onClick={() =>
                  whatsappCheck.mutate(current.id, {
                    onSuccess: (saved) =>
                      setCurrent((c) => (c ? { ...c, ...saved, updatedAt: c.updatedAt } : saved)),
                    onError: (error) =>
                      show({
                        severity: 'error',
                        title: 'Erro ao verificar WhatsApp',
                        message: errorMessage(error),
                      }),
                  })
                }
              >
                {whatsappCheck.isPending ? 'Verificando...' : 'Verificar WhatsApp'}
              </Button>
            )}
          </Stack>
        )}
        {current?.isDelinquent && (
          <Alert severity="error">
            Cliente inadimplente: {formatCents(current.overdueCents)} em atraso no crediário.
          </Alert>
        )}

        <Box component="fieldset" disabled={!canWrite} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
          <Stack spacing={2}>
            <Paper sx={{ p: 2 }}>
              <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
                Dados do cliente
              </Typography>
              <Grid container spacing={2}>
                <Grid size={12}>
                  <Controller
                    control={control}
                    name="personType"
                    render={({ field }) => (
                      <RadioGroup row aria-label="Tipo de pessoa" {...field}>
                        {(Object.keys(PERSON_TYPE_LABELS) as PersonType[]).map((type) => (
                          <FormControlLabel
                            key={type}
                            value={type}
                            control={<Radio />}
                            label={PERSON_TYPE_LABELS[type]}
                          />
                        ))}
                      </RadioGroup>
                    )}
                  />
                </Grid>
                <Grid size={{ xs: 12, md: 8 }}>
                  <FormText
                    control={control}
                    name="name"
                    label={isCompany ? 'Razão social' : 'Nome'}
                    required
                  />
                </Grid>
                <Grid size={{ xs: 12, md: 4 }}>
                  <FormText
                    control={control}
                    name="document"
                    label={isCompany ? 'CNPJ' : 'CPF'}
                    mask={maskDocument}
                    placeholder={isCompany ? '00.000.000/0000-00' : '000.000.000-00'}
                    helperText="Opcional"
                    slotProps={{ htmlInput: { inputMode: isCompany ? 'text' : 'numeric' } }}
                  />
                </Grid>
                <Grid size={{ xs: 12, md: 4 }}>
                  <FormText
                    control={control}
                    name="birthDate"
                    label={isCompany ? 'Data de fundação' : 'Data de nascimento'}
                    type="date"
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                </Grid>
                <Grid size={{ xs: 12, md: 8 }} sx={{ display: 'flex', alignItems: 'center' }}>
                  <Controller
                    control={control}
                    name="active"
                    render={({ field }) => (
                      <FormControlLabel
                        control={
                          <Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />
                        }
                        label="Cliente ativo"
                      />
                    )}
                  />
                </Grid>
              </Grid>
            </Paper>

            <Paper sx={{ p: 2 }}>
              <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
                Contato e crediário
              </Typography>
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, md: 4 }}>
                  <FormText
                    control={control}
                    name="phone"
                    label="WhatsApp"
                    mask={maskPhone}
                    placeholder="(11) 98765-4321"
                    type="tel"
                    slotProps={{
                      input: { startAdornment: <InputAdornment position="start">+55</InputAdornment> },
                    }}
                  />
                </Grid>
                <Grid size={{ xs: 12, md: 4 }}>
                  <FormText control={control} name="email" label="Email" type="email" />
                </Grid>
                <Grid size={{ xs: 12, md: 4 }}>
                  <FormText
                    control={control}
                    name="creditLimit"
                    label="Limite de crédito (crediário)"
                    mask={maskDecimalInput}
                    placeholder="0,00"
                    helperText="0 ou vazio: sem crediário"
                    slotProps={{
                      input: { startAdornment: <InputAdornment position="start">R$</InputAdornment> },
                      htmlInput: { inputMode: 'decimal' },
                    }}
                  />
                </Grid>
                <Grid size={12}>
                  <FormText control={control} name="notes" label="Observações" multiline minRows={2} />
                </Grid>
              </Grid>
            </Paper>

            <Paper sx={{ p: 2 }}>
              <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'center' }}>
                <Typography component="h2" variant="h6">
                  Endereços
                </Typography>
                {canWrite && (
                  <Button
                    startIcon={<AddIcon />}
                    onClick={() => addresses.append(emptyAddress(addresses.fields.length === 0))}
                  >
                    Adicionar endereço
                  </Button>
                )}
              </Stack>
              {addresses.fields.length === 0 && (
                <Typography color="text.secondary">Nenhum endereço cadastrado.</Typography>
              )}
              {addressesError && <FormHelperText error>{addressesError}</FormHelperText>}
              <Stack spacing={2}>
                {addresses.fields.map((field, index) => (
                  <AddressFields
                    key={field.id}
                    index={index}
                    control={control}
                    setValue={setValue}
                    initialZip={field.zipCode}
                    canWrite={canWrite}
                    onRemove={() => {
                      const wasDefault = form.getValues(`addresses.${index}.isDefault`);
                      addresses.remove(index);
                      if (wasDefault && addresses.fields.length > 1) setValue('addresses.0.isDefault', true);
                    }}
                    onMakeDefault={() => setDefault(index)}
                  />
                ))}
              </Stack>
            </Paper>
          </Stack>
        </Box>

        {formError && <Alert severity="error">{formError}</Alert>}
        <Stack direction="row" spacing={1}>
          {canWrite && (
            <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
              {formState.isSubmitting ? (current ? 'Salvando...' : 'Cadastrando...') : 'Salvar'}
            </Button>
          )}
          <Button component={RouterLink} to={LIST}>
            Voltar para a lista
          </Button>
        </Stack>
      </Stack>
      <FeedbackSnackbar state={feedback} onClose={close} />
    </Box>
  );
}

type FormTextProps = Omit<TextFieldProps, 'name'> & {
  control: Control<FormValues>;
  name: FieldPath<FormValues>;
  mask?: (value: string) => string;
};

/** A text input bound to the form, showing the shared schema's message under it. */
function FormText({ control, name, mask, helperText, ...props }: FormTextProps) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          name={field.name}
          value={(field.value as string | undefined) ?? ''}
          onChange={(e) => field.onChange(mask ? mask(e.target.value) : e.target.value)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}

type CepStatus = { kind: 'idle' | 'loading' | 'found' | 'failed'; message?: string };

function cepFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 404)
      return 'CEP não encontrado. Confira o número ou preencha o endereço manualmente.';
    if (error.status === 400) return 'CEP inválido. Confira o número.';
    if (error.status === 0) return 'Sem conexão para consultar o CEP. Preencha o endereço manualmente.';
    // 503: the server's message already says to type the address.
    return error.message;
  }
  return 'Não foi possível consultar o CEP agora. Preencha o endereço manualmente.';
}

type AddressProps = {
  index: number;
  control: Control<FormValues>;
  setValue: UseFormSetValue<FormValues>;
  initialZip: string;
  canWrite: boolean;
  onRemove: () => void;
  onMakeDefault: () => void;
};

/** One address; typing a full CEP fills street, neighbourhood, city and UF. The fields stay editable. */
function AddressFields({
  index,
  control,
  setValue,
  initialZip,
  canWrite,
  onRemove,
  onMakeDefault,
}: AddressProps) {
  const zip = useWatch({ control, name: `addresses.${index}.zipCode` });
  const isDefault = useWatch({ control, name: `addresses.${index}.isDefault` });
  const complement = useWatch({ control, name: `addresses.${index}.complement` });
  const looked = useRef(normalizeCep(initialZip));
  const request = useRef(0);
  const numberRef = useRef<HTMLInputElement | null>(null);
  const [cep, setCep] = useState<CepStatus>({ kind: 'idle' });
  const complementRef = useRef(complement);
  complementRef.current = complement;

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new CEP starts a lookup
  useEffect(() => {
    const digits = normalizeCep(zip ?? '');
    if (digits.length !== 8) {
      if (cep.kind !== 'idle') setCep({ kind: 'idle' });
      if (digits.length < 8) looked.current = '';
      return;
    }
    if (digits === looked.current) return;
    looked.current = digits;
    const ticket = ++request.current;
    setCep({ kind: 'loading' });
    fetchCep(digits)
      .then((address) => {
        if (ticket !== request.current) return;
        const opts = { shouldDirty: true, shouldValidate: true };
        setValue(`addresses.${index}.street`, address.street, opts);
        setValue(`addresses.${index}.neighborhood`, address.neighborhood, opts);
        setValue(`addresses.${index}.city`, address.city, opts);
        setValue(`addresses.${index}.state`, address.state, opts);
        if (!complementRef.current && address.complement) {
          setValue(`addresses.${index}.complement`, address.complement, { shouldDirty: true });
        }
        setCep({ kind: 'found' });
        numberRef.current?.focus();
      })
      .catch((error) => {
        if (ticket !== request.current) return;
        setCep({ kind: 'failed', message: cepFailureMessage(error) });
      });
  }, [zip]);

  const name = (field: keyof AddressForm) => `addresses.${index}.${field}` as FieldPath<FormValues>;

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={`address-${index}`}>
      <Stack direction="row" sx={{ mb: 1, justifyContent: 'space-between', alignItems: 'center' }}>
        <FormControlLabel
          control={<Radio checked={Boolean(isDefault)} onChange={onMakeDefault} />}
          label="Endereço principal"
        />
        {canWrite && (
          <Tooltip title="Remover endereço">
            <IconButton aria-label={`Remover endereço ${index + 1}`} onClick={onRemove}>
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 4, md: 3 }}>
          <FormText
            control={control}
            name={name('zipCode')}
            label="CEP"
            mask={maskCep}
            placeholder="00000-000"
            slotProps={{
              htmlInput: { inputMode: 'numeric' },
              input: {
                endAdornment:
                  cep.kind === 'loading' ? (
                    <InputAdornment position="end">
                      <CircularProgress size={18} aria-label="Buscando endereço" />
                    </InputAdornment>
                  ) : undefined,
              },
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 8, md: 7 }}>
          <FormText control={control} name={name('street')} label="Logradouro" required />
        </Grid>
        <Grid size={{ xs: 5, sm: 4, md: 2 }}>
          <Controller
            control={control}
            name={name('number')}
            render={({ field, fieldState }) => (
              <TextField
                label="Número"
                required
                fullWidth
                name={field.name}
                value={(field.value as string) ?? ''}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={(el: HTMLInputElement | null) => {
                  field.ref(el);
                  numberRef.current = el;
                }}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message ?? 'S/N se não houver'}
              />
            )}
          />
        </Grid>
        <Grid size={12} sx={{ display: cep.kind === 'failed' ? 'block' : 'none' }}>
          <Alert severity="warning" role="status" data-testid="cep-fallback">
            {cep.message}
          </Alert>
        </Grid>
        <Grid size={{ xs: 7, sm: 8, md: 4 }}>
          <FormText control={control} name={name('complement')} label="Complemento" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <FormText control={control} name={name('neighborhood')} label="Bairro" required />
        </Grid>
        <Grid size={{ xs: 8, sm: 4, md: 3 }}>
          <FormText control={control} name={name('city')} label="Cidade" required />
        </Grid>
        <Grid size={{ xs: 4, sm: 2, md: 2 }}>
          <FormText control={control} name={name('state')} label="UF" select required>
            {BRAZIL_STATES.map((uf) => (
              <MenuItem key={uf} value={uf}>
                {uf}
              </MenuItem>
            ))}
          </FormText>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <FormText control={control} name={name('label')} label="Apelido" placeholder="Casa, Trabalho..." />
        </Grid>
      </Grid>
    </Paper>
  );
}
