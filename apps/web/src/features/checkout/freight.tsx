import { formatCents } from '@balcao/core/money';
import type { DeliveryQuote } from '@balcao/core/shipping';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { useOffline } from '../offline/index.ts';
import { useCustomerDetail } from '../sale/index.ts';
import { type PickedFreight, postDeliveryQuote } from '../shipping/index.ts';
import { type PdvAction, type PdvState, pdvTotals } from './state.ts';

/**
 * The own-delivery freight of a sale being made (issue 30): quoted from the shop's rules for the
 * chosen address and the order's value, and quoted AGAIN whenever that value changes, whatever the
 * step on screen: a discount on the payment step that takes the order below the free-delivery
 * threshold brings the freight back at once, with the rule's reason. The page holds it (PDV, budget,
 * phone order) and hands it to the customer step, which shows and edits it.
 *
 * A carrier's quote picked in a freight simulator (`picked`) wins over the own rules; offline the
 * operator types the freight (the quote needs the server).
 */
export type DeliveryFreight = {
  quote: DeliveryQuote | null;
  error: string | null;
  /** A quote is on its way: the freight shown may change (the PDV waits before finishing). */
  quoting: boolean;
  /** The distance the operator typed (km), when the rule needs one and no routing answered. */
  distance: string;
  setDistance: (text: string) => void;
  picked: PickedFreight | null;
  setPicked: (picked: PickedFreight | null) => void;
};

/** The order's value the rules read: the total without the freight. */
export const orderValueCents = (state: PdvState) => {
  const t = pdvTotals(state);
  return Math.max(0, t.finalAmountCents - t.freightCents);
};

export function useDeliveryFreight(state: PdvState, dispatch: (action: PdvAction) => void): DeliveryFreight {
  const offline = useOffline();
  const delivery = state.typeOfSale === 'delivery';
  const detail = useCustomerDetail(state.customer?.id, delivery && !offline);
  const address = delivery ? detail.data?.addresses.find((a) => a.id === state.deliveryAddressId) : undefined;
  const orderCents = orderValueCents(state);
  const [picked, setPicked] = useState<PickedFreight | null>(null);
  const [distance, setDistance] = useState('');
  const [quote, setQuote] = useState<DeliveryQuote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [quoting, setQuoting] = useState(false);
  const stateRef = useRef(state);
  stateRef.current = state;

  const distanceKm = distance.trim() ? Number(distance.replace(',', '.')) : undefined;
  const typedDistance = distanceKm !== undefined && Number.isFinite(distanceKm) ? distanceKm : undefined;
  useEffect(() => {
    setQuote(null);
    setError(null);
    if (!address || offline) {
      setQuoting(false);
      return;
    }
    const controller = new AbortController();
    setQuoting(true);
    postDeliveryQuote(
      {
        subtotalCents: orderCents,
        address: {
          zipCode: address.zipCode,
          street: address.street,
          number: address.number,
          neighborhood: address.neighborhood,
          city: address.city,
          state: address.state,
        },
        distanceKm: typedDistance,
      },
      controller.signal,
    )
      .then((answer) => {
        setQuote(answer);
        setQuoting(false);
        const now = stateRef.current;
        if (answer.ok && answer.feeCents !== null && !picked && now.typeOfSale === 'delivery') {
          dispatch({
            type: 'delivery',
            typeOfSale: 'delivery',
            deliveryAddressId: now.deliveryAddressId,
            freightCents: answer.feeCents,
          });
        }
      })
      .catch((e) => {
        if ((e as Error).name === 'AbortError' || controller.signal.aborted) return;
        setError(errorMessage(e));
        setQuoting(false);
      });
    return () => controller.abort();
  }, [address, orderCents, typedDistance, picked, offline, dispatch]);

  return { quote, error, quoting, distance, setDistance, picked, setPicked };
}

/**
 * The totals' freight line with the rule's reason under it ("Frete grátis acima de R$ 100,00" or
 * the paid rule), so a freight that came back after a discount says why.
 */
export function FreightLine({ cents, freight }: { cents: number; freight: DeliveryFreight }) {
  const reason = freight.picked ? null : freight.quote?.reason;
  return (
    <Stack spacing={0.25}>
      <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
        <Typography color="text.secondary">Frete</Typography>
        <Typography data-testid="pdv-freight">{formatCents(cents)}</Typography>
      </Stack>
      {reason && (
        <Typography variant="caption" color="text.secondary" data-testid="freight-reason">
          {reason}
        </Typography>
      )}
    </Stack>
  );
}
