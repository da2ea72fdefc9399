import { type CustomerListItem, customerInputSchema } from '@balcao/core/customer';
import { maskDocument, maskPhone } from '@balcao/core/document';
import { customerApi } from '@balcao/core/endpoints/customer';
import { formatCents } from '@balcao/core/money';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Form, FormError, FormTextField, SubmitButton, useAppForm } from '../../components/form.tsx';
import { centsOf, centsToInput, MoneyField } from '../../components/MoneyField.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCall } from '../../lib/client.ts';
import { formatTime } from '../../lib/format.ts';
import { useSession } from '../auth/index.ts';
import type { LocalCatalog, LocalCustomer } from '../offline/index.ts';
import { isOffline, useOffline } from '../offline/index.ts';
import { searchCustomers, useCustomerDetail, useSellers } from '../sale/index.ts';
import { takePickedFreight } from '../shipping/index.ts';
import {
  AddAddressForm,
  AddressInputs,
  type AddressValues,
  addressInputOf,
  emptyAddressValues,
} from './DeliveryAddress.tsx';
import type { DeliveryFreight } from './freight.tsx';
import type { PdvAction, PdvState } from './state.ts';

type Props = {
  clientId: number;
  state: PdvState;
  dispatch: (action: PdvAction) => void;
  /** The delivery panel's phone order: no pickup option, the customer's default address preselected. */
  deliveryOnly?: boolean;
  /** The local copy (issue 21): searched when the PDV is offline. Without it, the server only. */
  catalog?: LocalCatalog;
  /** The page's own-delivery quote (freight.ts): re-quoted whenever the order's value changes. */
  freightQuote: DeliveryFreight;
};

type CustomerHit = Pick<CustomerListItem, 'id' | 'name' | 'document' | 'phone'> & { isDelinquent?: boolean };

/** Step 1: optional customer (search or quick create) and pickup or delivery with address and freight. */
export function CustomerStep({
  clientId,
  state,
  dispatch,
  deliveryOnly = false,
  catalog,
  freightQuote,
}: Props) {
  const session = useSession();
  const [q, setQ] = useState('');
  const [results, setResults] = useState<CustomerHit[]>([]);
  const [creating, setCreating] = useState(false);
  const [freight, setFreight] = useState(state.freightCents ? centsToInput(state.freightCents) : '');

  useEffect(() => {
    if (q.trim().length < 2) {
      setResults([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const local = () => catalog?.searchCustomers(q.trim()) ?? Promise.resolve([]);
      (catalog && isOffline()
        ? local()
        : searchCustomers(clientId, q.trim(), controller.signal).then(
            (page): CustomerHit[] => page.items,
            (error) => {
              if (!(error instanceof ApiError) || error.status !== 0) throw error;
              return local();
            },
          )
      )
        .then((found) => {
          if (!controller.signal.aborted) setResults(found);
        })
        .catch(() => undefined);
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, clientId, catalog]);

  const sellers = useSellers(clientId, session.user?.userType.id);
  const customerId = state.customer?.id;
  const offline = useOffline();
  const detail = useCustomerDetail(customerId, !(catalog && offline));
  // Offline (or the server out of reach), the customer's addresses and crediário figures come from
  // the local copy, as last seen (issue 21).
  const useLocal =
    Boolean(catalog) &&
    (offline || (detail.isError && detail.error instanceof ApiError && detail.error.status === 0));
  const [local, setLocal] = useState<LocalCustomer | null | undefined>(undefined);
  useEffect(() => {
    setLocal(undefined);
    if (!catalog || !customerId) return;
    let live = true;
    void catalog.customer(customerId).then((c) => {
      if (live) setLocal(c ?? null);
    });
    return () => {
      live = false;
    };
  }, [catalog, customerId]);
  // What the server answered online is the copy's newest view of the customer.
  useEffect(() => {
    const c = detail.data;
    if (!catalog || !c) return;
    void catalog.rememberCustomer({
      id: c.id,
      name: c.name,
      document: c.document,
      phone: c.phone,
      active: c.active,
      addresses: c.addresses,
      creditLimitCents: c.creditLimitCents,
      pendingCents: c.pendingCents,
      isDelinquent: c.isDelinquent,
    });
  }, [catalog, detail.data]);
  const addresses = (useLocal ? local?.addresses : detail.data?.addresses) ?? [];
  const addressesLoaded = useLocal ? local !== undefined : !detail.isPending;
  const { picked, setPicked, quote, error: quoteError, distance, setDistance } = freightQuote;

  // The freight the page's quote set (a new address, a discount on the payment step): the field follows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the state's freight only
  useEffect(() => {
    const typed = centsOf(freight);
    if (state.freightCents !== (Number.isNaN(typed) ? 0 : typed))
      setFreight(centsToInput(state.freightCents));
  }, [state.freightCents]);

  // A quote chosen in a freight simulator ("Usar na venda") becomes this sale's delivery freight.
  // biome-ignore lint/correctness/useExhaustiveDependencies: taken once, when the step opens
  useEffect(() => {
    const taken = takePickedFreight();
    if (!taken) return;
    setPicked(taken);
    const text = centsToInput(taken.cents);
    setFreight(text);
    setDelivery('delivery', state.deliveryAddressId, text);
  }, []);

  const setDelivery = (
    typeOfSale: 'store' | 'delivery',
    addressId = state.deliveryAddressId,
    freightText = freight,
  ) => {
    const cents = centsOf(freightText);
    dispatch({
      type: 'delivery',
      typeOfSale,
      deliveryAddressId: addressId,
      freightCents: Number.isNaN(cents) ? 0 : cents,
    });
  };

  // Delivery only: a customer's default (or first) address is chosen when none is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the customer's addresses arrive
  useEffect(() => {
    if (!deliveryOnly || addresses.length === 0) return;
    if (state.typeOfSale === 'delivery' && addresses.some((a) => a.id === state.deliveryAddressId)) return;
    setDelivery('delivery', (addresses.find((a) => a.isDefault) ?? addresses[0]).id);
  }, [deliveryOnly, addresses, state.deliveryAddressId, state.typeOfSale]);

  return (
    <Stack spacing={3}>
      <Box>
        <Typography component="h2" variant="h6" gutterBottom>
          {/* A delivery needs the customer (the address is theirs): not optional then. */}
          {state.typeOfSale === 'delivery' ? 'Cliente' : 'Cliente (opcional)'}
        </Typography>
        {state.customer ? (
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack
              direction="row"
              sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
            >
              <Box>
                <Typography sx={{ fontWeight: 600 }} data-testid="pdv-customer">
                  {state.customer.name}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {[
                    state.customer.document && maskDocument(state.customer.document),
                    state.customer.phone && maskPhone(state.customer.phone),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Typography>
                {!useLocal && detail.data && detail.data.pendingCents > 0 && (
                  <Typography variant="body2" color="text.secondary">
                    Em aberto no crediário: {formatCents(detail.data.pendingCents)} · limite{' '}
                    {formatCents(detail.data.creditLimitCents)}
                  </Typography>
                )}
                {useLocal && local && (local.pendingCents > 0 || local.creditLimitCents > 0) && (
                  <Typography variant="body2" color="text.secondary" data-testid="pdv-customer-credit-seen">
                    Em aberto no crediário: {formatCents(local.pendingCents)} · limite{' '}
                    {formatCents(local.creditLimitCents)} · visto às {formatTime(local.seenAt)}. Sem conexão:
                    crediário e boleto ficam indisponíveis (o limite de crédito do cliente só é conferido no
                    servidor).
                  </Typography>
                )}
              </Box>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                {(useLocal ? local?.isDelinquent : detail.data?.isDelinquent) && (
                  <Chip color="error" label="Inadimplente" />
                )}
                <Button onClick={() => dispatch({ type: 'customer', customer: null })}>Trocar cliente</Button>
              </Stack>
            </Stack>
          </Paper>
        ) : (
          <>
            <TextField
              label="Buscar cliente por nome, CPF/CNPJ ou telefone (F4)"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              autoFocus
              fullWidth
              autoComplete="off"
              onKeyDown={(e) => {
                if (e.key === 'Enter' && results[0]) {
                  e.preventDefault();
                  const c = results[0];
                  dispatch({
                    type: 'customer',
                    customer: { id: c.id, name: c.name, document: c.document, phone: c.phone },
                  });
                }
              }}
            />
            {results.length > 0 && (
              <Paper variant="outlined" sx={{ mt: 1 }}>
                <List dense aria-label="Clientes encontrados">
                  {results.map((c) => (
                    <ListItemButton
                      key={c.id}
                      onClick={() =>
                        dispatch({
                          type: 'customer',
                          customer: {
                            id: c.id,
                            name: c.name,
                            document: c.document,
                            phone: c.phone,
                            isDelinquent: c.isDelinquent,
                          },
                        })
                      }
                    >
                      <ListItemText
                        primary={c.name}
                        secondary={[
                          c.document && maskDocument(c.document),
                          c.phone && maskPhone(c.phone),
                          c.isDelinquent ? 'Inadimplente' : null,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      />
                    </ListItemButton>
                  ))}
                </List>
              </Paper>
            )}
            {creating ? (
              <QuickCustomerForm
                withAddress={state.typeOfSale === 'delivery'}
                onCancel={() => setCreating(false)}
                onCreated={(c, addressId) => {
                  setCreating(false);
                  dispatch({ type: 'customer', customer: c });
                  if (addressId) setDelivery('delivery', addressId);
                }}
              />
            ) : (
              <Button startIcon={<PersonAddIcon />} sx={{ mt: 1 }} onClick={() => setCreating(true)}>
                Cadastrar cliente rápido
              </Button>
            )}
          </>
        )}
      </Box>

      {sellers.data && (
        <Box>
          <Typography component="h2" variant="h6" gutterBottom>
            Vendedor
          </Typography>
          <TextField
            select
            label="Vendedor da venda"
            // The logged user is the seller until another is picked (null in the state = who is at the PDV).
            value={state.sellerId ?? session.user?.id ?? ''}
            onChange={(e) => {
              const id = Number(e.target.value);
              dispatch({ type: 'seller', sellerId: id && id !== session.user?.id ? id : null });
            }}
            sx={{ minWidth: 280 }}
          >
            <MenuItem value={session.user?.id ?? ''}>
              {session.user?.name ?? 'Eu'} (quem está no caixa)
            </MenuItem>
            {sellers.data.items
              .filter((u) => u.active && u.id !== session.user?.id)
              .map((u) => (
                <MenuItem key={u.id} value={u.id}>
                  {u.name}
                </MenuItem>
              ))}
          </TextField>
        </Box>
      )}

      <Box>
        <Typography component="h2" variant="h6" gutterBottom>
          Entrega
        </Typography>
        {!deliveryOnly && (
          <RadioGroup
            row
            value={state.typeOfSale}
            onChange={(e) => {
              const type = e.target.value as 'store' | 'delivery';
              const text = freight;
              setDelivery(
                type,
                type === 'delivery' ? (state.deliveryAddressId ?? addresses[0]?.id ?? null) : null,
                text,
              );
            }}
          >
            <FormControlLabel value="store" control={<Radio />} label="Retirada na loja" />
            <FormControlLabel value="delivery" control={<Radio />} label="Entrega" />
          </RadioGroup>
        )}
        {state.typeOfSale === 'delivery' && (
          <Stack spacing={2} sx={{ mt: 1, maxWidth: 520 }}>
            {!state.customer ? (
              <Alert severity="info">Escolha o cliente para usar um endereço de entrega.</Alert>
            ) : addresses.length === 0 && addressesLoaded ? (
              <>
                <Alert severity="warning">
                  Este cliente não tem endereço cadastrado. Cadastre o endereço de entrega abaixo.
                </Alert>
                <AddAddressForm
                  customerId={state.customer.id}
                  onAdded={(a) => setDelivery('delivery', a.id)}
                />
              </>
            ) : (
              <TextField
                select
                label="Endereço de entrega"
                value={state.deliveryAddressId ?? ''}
                onChange={(e) => setDelivery('delivery', Number(e.target.value))}
              >
                {addresses.map((a) => (
                  <MenuItem key={a.id} value={a.id}>
                    {`${a.street}, ${a.number}${a.complement ? ` - ${a.complement}` : ''} - ${a.neighborhood}, ${a.city}/${a.state}`}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {picked ? (
              <Alert
                severity="info"
                action={
                  <Button color="inherit" size="small" onClick={() => setPicked(null)}>
                    Usar entrega própria
                  </Button>
                }
              >
                Frete da transportadora: {picked.label} ({formatCents(picked.cents)})
              </Alert>
            ) : quote ? (
              <Alert severity={quote.ok ? 'success' : 'warning'} data-testid="pdv-freight-reason">
                {quote.reason}
                {quote.ok && quote.timeMinutes ? ` · entrega em até ${quote.timeMinutes} min` : ''}
              </Alert>
            ) : quoteError ? (
              <Alert severity="warning">{quoteError}</Alert>
            ) : null}
            {!picked && (quote?.code === 'distance_required' || quote?.distanceSource === 'typed') && (
              <TextField
                label="Distância até o cliente (km)"
                value={distance}
                onChange={(e) => setDistance(e.target.value.replace(/[^\d,.]/g, ''))}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                sx={{ maxWidth: 260 }}
              />
            )}
            <MoneyField
              label="Frete"
              value={freight}
              onChange={(text) => {
                setFreight(text);
                setDelivery('delivery', state.deliveryAddressId, text);
              }}
            />
          </Stack>
        )}
      </Box>
    </Stack>
  );
}

function QuickCustomerForm({
  withAddress,
  onCreated,
  onCancel,
}: {
  /** A delivery: the customer's address is asked with the name (issue 30). */
  withAddress: boolean;
  onCreated: (
    c: { id: number; name: string; document: string | null; phone: string | null },
    addressId: number | null,
  ) => void;
  onCancel: () => void;
}) {
  const form = useAppForm<QuickValues, unknown>({
    schema: customerInputSchema,
    defaultValues: { name: '', phone: '', document: '', address: emptyAddressValues },
    toInput: (v) => quickBody(v, withAddress),
    // The address's issues go under its fields.
    fieldOf: (path) => path.replace(/^addresses\.0\./, 'address.'),
  });
  const create = useCall(customerApi.create);
  // What was typed goes to the API, which parses it with the same schema.
  const submit = async () => {
    const created = await create.mutateAsync({ body: quickBody(form.getValues(), withAddress) as never });
    onCreated(
      { id: created.id, name: created.name, document: created.document, phone: created.phone },
      created.addresses[0]?.id ?? null,
    );
  };
  return (
    <Form form={form} onSubmit={submit} aria-label="Cadastro rápido de cliente">
      <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
        <Stack spacing={2}>
          <FormTextField control={form.control} name="name" label="Nome" required autoFocus />
          <FormTextField control={form.control} name="phone" label="WhatsApp" mask={maskPhone} />
          <FormTextField control={form.control} name="document" label="CPF/CNPJ" mask={maskDocument} />
          {withAddress && (
            <>
              <Typography variant="subtitle2">Endereço de entrega</Typography>
              <AddressInputs
                control={form.control}
                setValue={form.setValue}
                getValues={form.getValues}
                prefix="address."
              />
            </>
          )}
          <FormError />
          <Stack direction="row" spacing={1}>
            <SubmitButton busyLabel="Cadastrando...">Cadastrar</SubmitButton>
            <Button onClick={onCancel}>Cancelar</Button>
          </Stack>
        </Stack>
      </Paper>
    </Form>
  );
}

type QuickValues = { name: string; phone: string; document: string; address: AddressValues };
const quickBody = ({ name, phone, document, address }: QuickValues, withAddress: boolean) => ({
  name,
  phone: phone || null,
  document: document || null,
  addresses: withAddress ? [addressInputOf(address)] : [],
});
