import { plural } from '@balcao/core/plural';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import SyncIcon from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { invalidateResources } from '../../lib/queryKeys.ts';
import type { LocalCatalog } from './catalog.ts';
import type { OfflineDb } from './db.ts';
import { syncOutbox } from './outbox.ts';
import { isOffline, onOnline, useOffline } from './status.ts';
import { useWaitingMovements, useWaitingSales } from './useOfflineStore.ts';

const waitingText = (n: number) => plural(n, 'venda aguardando envio', 'vendas aguardando envio');

/**
 * The PDV's offline banner and sync (issue 21): offline, it says so and how many sales wait; when the
 * connection returns (and when the PDV opens online) it sends the waiting sales in order, then brings
 * the local catalog up to date. Another tab's sync empties the count here too (live query).
 */
export function OfflineSync({ db, catalog }: { db: OfflineDb; catalog: LocalCatalog }) {
  const offline = useOffline();
  const waiting = useWaitingSales(db);
  const movements = useWaitingMovements(db);
  const queryClient = useQueryClient();
  const [syncing, setSyncing] = useState(false);
  const running = useRef(false);
  const again = useRef(false);

  useEffect(() => {
    const run = async () => {
      // The connection came back while a run was under way (one that may have failed offline): run
      // again right after it, rather than leave the sales waiting for the next trigger.
      if (running.current) {
        again.current = true;
        return;
      }
      running.current = true;
      setSyncing(true);
      try {
        do {
          again.current = false;
          const { sent } = await syncOutbox(db);
          if (sent.length > 0) void invalidateResources(queryClient, ['sale']);
          await catalog.sync().catch(() => undefined);
          await catalog.syncCustomers().catch(() => undefined);
          await catalog.syncCoupons().catch(() => undefined);
          await catalog.syncStockSettings().catch(() => undefined);
        } while (again.current && !isOffline());
        // The search index is built now, not at the first offline search (seconds for a big catalog).
        void catalog.load().catch(() => undefined);
      } finally {
        running.current = false;
        setSyncing(false);
      }
    };
    if (!offline) void run();
    return onOnline(() => void run());
  }, [db, catalog, offline, queryClient]);

  const error = waiting.find((w) => w.error)?.error ?? movements.find((m) => m.error)?.error ?? null;
  const movementsText =
    movements.length > 0
      ? ` ${plural(movements.length, 'movimento de caixa', 'movimentos de caixa')} também.`
      : '';
  if (offline) {
    return (
      <Alert severity="warning" icon={<CloudOffIcon />} data-testid="offline-banner" sx={{ mb: 2 }}>
        Sem conexão: o PDV continua vendendo e guarda as vendas neste aparelho.
        {waiting.length > 0 && <strong> {waitingText(waiting.length)}.</strong>}
        {movementsText}
      </Alert>
    );
  }
  if (waiting.length === 0 && movements.length === 0) return null;
  return (
    <Alert
      severity={error && !syncing ? 'error' : 'info'}
      icon={<SyncIcon />}
      data-testid="offline-banner"
      sx={{ mb: 2 }}
    >
      {syncing ? 'Enviando' : 'Aguardando envio:'} {plural(waiting.length, 'venda feita', 'vendas feitas')}{' '}
      sem conexão.{movementsText}
      {error && !syncing ? ` ${error}` : ''}
    </Alert>
  );
}
