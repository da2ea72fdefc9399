import { kdsApi } from '@balcao/core/endpoints/kds';
import { useQuery } from '@tanstack/react-query';
import { call, queryOf, useCall } from '../../lib/client.ts';

/** The kitchen display (issue 35): stations, a station's cards, bump, recall, targets. */
export function useKdsStations() {
  return useQuery(queryOf(kdsApi.stations, {}));
}

/** A station's cards. The socket refetches on every change; the interval covers a lost socket. */
export function useKdsBoard(id: number) {
  return useQuery({ ...queryOf(kdsApi.board, { params: { id } }), refetchInterval: 15_000 });
}

export const kdsHeartbeat = (id: number) => call(kdsApi.heartbeat, { params: { id } });

export const useKdsReady = () => useCall(kdsApi.ready, { background: true });
export const useKdsRecall = () => useCall(kdsApi.recall, { background: true });
export const useSaveKdsSettings = () => useCall(kdsApi.saveSettings);
