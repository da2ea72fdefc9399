import type { LoginInput } from '@balcao/core/auth';
import { authRoutes, sessionShippingRules } from '@balcao/core/endpoints/authRoutes';
import type { SessionPayload, SessionUser } from '@balcao/core/session';
import type { SettingsChecklist } from '@balcao/core/userTypes';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { clearSessionCookies, getToken, readUserCookie, setSessionCookies } from '../../lib/cookies.ts';
import { clearPersistedState, loadPersisted, savePersisted } from '../../lib/persist.ts';
import { setShopTimeZone } from '../../lib/shopZone.ts';

/** The last session answer, so the PDV opens without a connection (issue 21); cleared at logout. */
const OFFLINE_SESSION_KEY = 'session';

/** Revalidation outcome: where the shell must go when the stored session is not usable. */
type SessionRedirect = '/login' | '/logout' | null;

type SessionState = Partial<SessionPayload> & {
  token?: string;
  isLogged: boolean;
  authLoading: boolean;
  redirect: SessionRedirect;
};

type SessionApi = SessionState & {
  login: (input: LoginInput) => Promise<SessionPayload>;
  startSession: (payload: SessionPayload & { token: string }) => void;
  logout: () => Promise<void>;
  setSettingsChecklist: (checklist: SettingsChecklist) => void;
  /**
   * Reloads the session data (/user/me) without a reload of the page: a settings change (flags, time
   * zone, logo, company name, Pix key) reaches every logged user's menus and top bar at once.
   */
  refresh: () => Promise<void>;
};

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>(() => {
    const token = getToken();
    return { token, isLogged: false, authLoading: Boolean(token), redirect: null };
  });
  // Every date and time shows in the shop's zone; whatever path updates the session (login,
  // revalidation, a settings change) sets it before this render's children format anything.
  setShopTimeZone(state.user?.client.timeZone);

  const startSession = useCallback((payload: SessionPayload & { token: string }) => {
    setSessionCookies(payload.token, compactUser(payload.user));
    const { token: _token, ...copy } = payload;
    savePersisted(OFFLINE_SESSION_KEY, copy);
    setState({ ...payload, isLogged: true, authLoading: false, redirect: null });
  }, []);

  // Revalidation (spec 2): with a token but no user loaded, ask the API who we are.
  useEffect(() => {
    const token = getToken();
    if (!token) return;
    let canceled = false;
    (async () => {
      try {
        const stored = readUserCookie<SessionUser>();
        if (stored && !stored.client?.id) {
          if (!canceled) setState((s) => ({ ...s, authLoading: false, redirect: '/login' }));
          return;
        }
        const payload: SessionPayload = await call(authRoutes.me);
        if (!payload.user?.client?.id) {
          if (!canceled) setState((s) => ({ ...s, authLoading: false, redirect: '/login' }));
          return;
        }
        try {
          const shipping = await call(sessionShippingRules, {
            params: { clientId: payload.user.client.id },
          });
          payload.shippingSettings = shipping[0] ?? null;
        } catch (error) {
          if (error instanceof ApiError && error.status !== 0) {
            if (!canceled) setState((s) => ({ ...s, authLoading: false, redirect: '/login' }));
            return;
          }
          throw error;
        }
        if (!canceled) startSession({ ...payload, token });
      } catch (error) {
        // No connection: the session as last answered, for the same user (the server checks the
        // token again when the connection returns).
        const saved = loadPersisted<SessionPayload | null>(OFFLINE_SESSION_KEY, null);
        const stored = readUserCookie<SessionUser>();
        if (error instanceof ApiError && error.status === 0 && saved?.user && saved.user.id === stored?.id) {
          if (!canceled) startSession({ ...saved, token });
          return;
        }
        console.error('session revalidation failed', error);
        if (!canceled) setState((s) => ({ ...s, authLoading: false, redirect: '/logout' }));
      }
    })();
    return () => {
      canceled = true;
    };
  }, [startSession]);

  const login = useCallback(
    async (input: LoginInput) => {
      const payload = await call(authRoutes.login, {
        body: { email: input.email.trim(), password: input.password.trim() },
      });
      startSession(payload);
      return payload;
    },
    [startSession],
  );

  const logout = useCallback(async () => {
    if (getToken()) await call(authRoutes.logout).catch(() => undefined);
    clearSessionCookies();
    clearPersistedState();
    setState({ isLogged: false, authLoading: false, redirect: null });
  }, []);

  const setSettingsChecklist = useCallback(
    (settingsChecklist: SettingsChecklist) => setState((s) => ({ ...s, settingsChecklist })),
    [],
  );

  const refresh = useCallback(async () => {
    if (!getToken()) return;
    try {
      const payload = await call(authRoutes.me);
      // The shipping rule the revalidation reads stays as loaded (its own page refreshes it).
      setState((s) =>
        s.isLogged
          ? { ...s, ...payload, shippingSettings: s.shippingSettings ?? payload.shippingSettings }
          : s,
      );
    } catch (error) {
      // A session that ended (401) is handled by the next request; a network error keeps the old data.
      console.error('session refresh failed', error);
    }
  }, []);

  const value = useMemo(
    () => ({ ...state, login, startSession, logout, setSettingsChecklist, refresh }),
    [state, login, startSession, logout, setSettingsChecklist, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** Only what the cookie needs: it stays small (4 KB cookie limit). */
function compactUser(user: SessionUser) {
  return { id: user.id, name: user.name, userType: user.userType, client: { id: user.client.id } };
}

export function useSession(): SessionApi {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}
