import { whatsappApi } from '@balcao/core/endpoints/whatsapp';
import type { WhatsappConnect, WhatsappInstanceView } from '@balcao/core/whatsapp';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { queryOf, useCall } from '../../../lib/client.ts';

/** The shop's WhatsApp instance: query options per read of `whatsappApi`, one mutation per write. */
export const whatsappQueries = {
  instance: () => queryOf(whatsappApi.instance),
};

export const useWhatsappInstance = () => useQuery(whatsappQueries.instance());

type Handlers = {
  /** The answer of a create, connect, logout or delete: the instance, and a QR code when connecting. */
  onAnswer: (answer: WhatsappConnect | WhatsappInstanceView) => void;
  onError: (error: unknown) => void;
};

/**
 * Create, connect (a QR code, or a pairing code for a number), log out and delete the instance:
 * one mutation per endpoint, every answer handed to `onAnswer` (the latest handlers, so `connect`
 * stays the same function across renders and can run on a timer).
 */
export function useInstanceActions(handlers: Handlers) {
  const latest = useRef(handlers);
  latest.current = handlers;
  const create = useCall(whatsappApi.create);
  const connect = useCall(whatsappApi.connect);
  const logout = useCall(whatsappApi.logout);
  const remove = useCall(whatsappApi.remove);
  const options = useMemo(
    () => ({
      onSuccess: (answer: WhatsappConnect | WhatsappInstanceView) => latest.current.onAnswer(answer),
      onError: (error: unknown) => latest.current.onError(error),
    }),
    [],
  );
  const connectMutate = connect.mutate;
  const ask = useCallback(
    (number?: string) => connectMutate({ body: number === undefined ? {} : { number } }, options),
    [connectMutate, options],
  );
  const connectAsync = connect.mutateAsync;
  return {
    isPending: create.isPending || connect.isPending || logout.isPending || remove.isPending,
    create: () => create.mutate({}, options),
    connect: ask,
    /** A pairing code for `number`, for a form: the answer goes to `onAnswer`, a failure is thrown. */
    pair: async (number: string) => latest.current.onAnswer(await connectAsync({ body: { number } })),
    logout: () => logout.mutate({}, options),
    remove: () => remove.mutate({}, options),
  };
}

export const useSendTest = () => useCall(whatsappApi.test);
