/** What the auth feature offers the other features (the structure check allows no other way in). */
export { useSession } from './session.tsx';
