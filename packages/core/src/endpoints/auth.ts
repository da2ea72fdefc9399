import { loginInputSchema } from '../auth.ts';
import { endpoint } from '../contract.ts';
import { okSchema } from '../responses.ts';
import { loginAnswerSchema, sessionPayloadSchema } from '../session.ts';
import { authRouteParts } from './authRoutes.ts';

/**
 * The session: log in, log out and revalidate (the OpenAPI tag `auth`). A change of what the login
 * answers is signalled as `session` (company, time zone), and the web's session reloads /user/me.
 * Method, path, access and changes are in authRoutes.ts (what the web's entry calls, without zod); the
 * schemas are added here, where the server reads them.
 */
export const authApi = {
  login: endpoint({
    ...authRouteParts.login,
    summary: 'Log in with email and password',
    body: loginInputSchema,
    response: { 200: loginAnswerSchema },
  }),
  logout: endpoint({
    ...authRouteParts.logout,
    summary: 'Revoke the current token',
    response: { 200: okSchema },
  }),
  me: endpoint({
    ...authRouteParts.me,
    summary: 'Revalidate the session: the same data as login, without the token',
    response: { 200: sessionPayloadSchema },
  }),
} as const;
