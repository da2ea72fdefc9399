import type { Config } from './config.ts';
import type { Db } from './db/client.ts';

export type AlertColor = 'success' | 'info' | 'warning' | 'error';
export type Notification = { message: string; alertColor?: AlertColor };

/** What every module gets: the database, the config and the notifier. */
export type AppContext = {
  db: Db;
  config: Config;
  notify: (clientId: number, notification: Notification) => void;
};
