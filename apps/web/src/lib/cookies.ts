import Cookies from 'js-cookie';

const TOKEN_COOKIE = 'balcao_token';
const USER_COOKIE = 'balcao_user';

/**
 * Cookie options of the spec (9): 1 day, path /, secure, sameSite lax, domain = parent domain of the host
 * (localhost: host-only, since browsers refuse an explicit domain=localhost).
 */
function cookieOptions(): Cookies.CookieAttributes {
  const host = window.location.hostname;
  const configured = import.meta.env.VITE_COOKIE_DOMAIN;
  const isIp = /^[\d.]+$/.test(host) || host.includes(':');
  const parts = host.split('.');
  const domain =
    configured ||
    (host === 'localhost' || isIp || parts.length < 3 ? undefined : `.${parts.slice(-2).join('.')}`);
  return {
    expires: 1,
    path: '/',
    secure: window.location.protocol === 'https:' || host === 'localhost',
    sameSite: 'lax',
    ...(domain ? { domain } : {}),
  };
}

export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE);
}

export function setSessionCookies(token: string, user: unknown): void {
  Cookies.set(TOKEN_COOKIE, token, cookieOptions());
  Cookies.set(USER_COOKIE, JSON.stringify(user), cookieOptions());
}

export function readUserCookie<T>(): T | null {
  const raw = Cookies.get(USER_COOKIE);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function clearSessionCookies(): void {
  const { domain } = cookieOptions();
  for (const name of [TOKEN_COOKIE, USER_COOKIE]) {
    Cookies.remove(name, { path: '/', ...(domain ? { domain } : {}) });
    Cookies.remove(name, { path: '/' });
  }
}
