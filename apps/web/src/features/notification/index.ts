/** What the notification feature offers the other features (the structure check allows no other way in). */

export type { AppNotification } from './useNotifications.ts';
export { useNotifications } from './useNotifications.ts';
