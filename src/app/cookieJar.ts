import Cookies from 'js-cookie';

/**
 * The page's cookies for its start-up. Every `document.cookie` read is a synchronous call to the browser process,
 * 2-10 ms each while a cold start keeps that process busy, and the start-up reads five cookies (language, sidebar,
 * size, token, user id) inside its first tasks: they share one read, kept for START_UP_MS. Later reads go to the
 * browser again (another tab may have logged out or switched the language meanwhile); writes update the copy.
 */
const START_UP_MS = 2_000;

let startUp: Record<string, string> | null = null;

export function readCookie(name: string): string | undefined {
  if (!startUp) {
    startUp = Cookies.get();
    setTimeout(() => (startUp = null), START_UP_MS);
  }
  return startUp[name];
}

export function writeCookie(name: string, value: string, options?: Cookies.CookieAttributes): void {
  Cookies.set(name, value, options);
  if (startUp) startUp[name] = value;
}

export function removeCookie(name: string): void {
  Cookies.remove(name);
  if (startUp) delete startUp[name];
}

/** Ends the start-up's shared read now (a test that starts the app again, after changing cookies, calls this). */
export function forgetStartUpCookies(): void {
  startUp = null;
}
