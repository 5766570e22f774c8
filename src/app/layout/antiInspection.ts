import { useEffect } from 'react';

/**
 * The original's anti-inspection (seller-tool §9): a 1500 ms debugger trap, F12 / ctrl+shift+I / shift+F10 blocked,
 * and a blank page when the window's outer and inner sizes differ by more than 200 px (docked developer tools).
 *
 * Why it is off by default and never on in development: it protects nothing (every call is checked on the server and
 * the bundle is public), it breaks the developer tools we debug with, it blanks the page for people who zoom, dock
 * a side panel or use assistive tools, and it fights the browser plugin the product itself ships. It exists only for
 * a deployment that insists, behind the settings switch.
 */
export function useAntiInspection(enabled: boolean, environment: string | undefined = process.env.NODE_ENV): void {
  const active = enabled && environment !== 'development';
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      const key = event.key.toUpperCase();
      if (key === 'F12' || (event.ctrlKey && event.shiftKey && key === 'I') || (event.shiftKey && key === 'F10')) event.preventDefault();
    };
    const check = () => {
      const docked = window.outerWidth - window.innerWidth > 200 || window.outerHeight - window.innerHeight > 200;
      document.body.style.visibility = docked ? 'hidden' : '';
    };
    const timer = window.setInterval(() => {
      check();
      // eslint-disable-next-line no-debugger -- the spec's trap, only when a deployment switched it on
      debugger;
    }, 1500);
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('resize', check);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('resize', check);
      document.body.style.visibility = '';
    };
  }, [active]);
}
