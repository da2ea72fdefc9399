import type { Config } from './config.ts';
import type { Db } from './db/client.ts';

export type AlertColor = 'success' | 'info' | 'warning' | 'error';
export type Notification = { message: string; alertColor?: AlertColor };

/** What every module gets: the database, the config, the notifier and the data-change signal. */
export type AppContext = {
  db: Db;
  config: Config;
  notify: (clientId: number, notification: Notification) => void;
  /**
   * Tells the client's other tills that a resource changed (socket.io event `change` with
   * `{resource, id}`), so their lists refresh. Called after the commit; a no-op without sockets.
   */
  changed: (clientId: number, resource: string, id?: number) => void;
};
