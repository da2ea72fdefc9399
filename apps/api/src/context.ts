import type { NotificationInput } from '@balcao/core/notification';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';

/** What every module gets: the database, the config and the notifier. */
export type AppContext = {
  db: Db;
  config: Config;
  notify: (clientId: number, notification: NotificationInput) => void;
};
