import type { Resource } from '@balcao/core/contract';
import type { NotificationInput } from '@balcao/core/notification';
import type { Server } from 'socket.io';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';

/** What every module gets: the database, the config, the notifier and the data-change signal. */
export type AppContext = {
  db: Db;
  config: Config;
  notify: (clientId: number, notification: NotificationInput) => void;
  /**
   * Tells the client's other tills that a resource changed (socket.io event `change` with
   * `{resource, id}`), so their lists refresh. Called after the commit; a no-op without sockets.
   */
  changed: (clientId: number, resource: Resource, id?: number) => void;
  /**
   * Called after a commit that ended sessions of a user (logout, deactivation, deletion, password
   * change): the user's sockets whose session is gone disconnect. A no-op without sockets.
   */
  sessionsEnded: (userId: number) => Promise<void>;
  /** The socket.io server, for modules that talk to particular sockets (print stations). */
  io: Server;
  /** Set when the instance shuts down (SIGTERM): /v1/ready answers 503 so the load balancer moves on. */
  lifecycle: { draining: boolean };
};
