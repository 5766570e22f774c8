import { lazy, Suspense, useDeferredValue, useEffect, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation, useSearch } from 'wouter';
import { selectPermittedRoutes, selectPhase, selectRoutesSettled, type RouteNode, type SessionPhase } from '@machines/sessionMachine';
import { BasicLayout } from './layout/BasicLayout';
import { findRoute, isRoutePermitted, loginHref, NOT_FOUND_PATH, type AppRoute } from './routes';
import { startProgress } from './progressBar';
import { FullPageSpin, ProgressDone, RoutePage } from './RoutePage';
import { SessionContext } from './session';

/** Page title, progress bar and scroll position for each navigation (seller-tool §2.1, §2.2). */
function useNavigationEffects(path: string, route: AppRoute | null) {
  const { t, i18n } = useTranslation();
  useLayoutEffect(() => {
    startProgress();
    window.scrollTo(0, 0);
    // In the shell the page scrolls inside the main column, not the window.
    const main = document.querySelector('.shell-main');
    if (main) main.scrollTop = 0;
  }, [path]);
  useEffect(() => {
    const site = t('site.title');
    document.title = route?.titleKey ? `${t(route.titleKey)} - ${site}` : site;
  }, [route, t, i18n.language]);
}

/**
 * The navigation guard (spec §2.2): without a session only /login and /register open, anything else goes to
 * /login?redirect=<wanted>; while the session is being restored or its routes generated, the page waits; a route the
 * user's roles do not include says which role opens it (the address stays); an unknown path goes to /404.
 */
export function RouterView() {
  const [path] = useLocation();
  const search = useSearch();
  const { phase, permitted, settled } = useDeferredSession();
  const route = findRoute(path);
  useNavigationEffects(path, route);

  const wanted = search ? `${path}?${search}` : path;
  if (route?.public) return <RoutePage route={route} />;
  if (phase === 'pending') return <FullPageSpin />;
  if (phase === 'loggedOut') return <Redirect to={loginHref(wanted)} replace />;
  if (!route) return <Redirect to={NOT_FOUND_PATH} replace />;
  if (route.redirect) return <Redirect to={route.redirect} replace />;
  // Routes made from the info a reload kept may be out of date: a page they leave out waits for the server's answer
  // (its roles may have changed, or the session ended and the login keeps the page to come back to) instead of
  // leaving for /404 at once.
  if (!isRoutePermitted(permitted, route)) return settled ? (
      <Suspense fallback={<FullPageSpin />}>
        <NoPermission roles={route.roles ?? []} area={route.area} />
        <ProgressDone />
      </Suspense>
    ) : (
      <FullPageSpin />
    );
  if (route.layout === 'blank') return <RoutePage route={route} />;
  // The shell renders the page itself: one cached view per tab.
  return <BasicLayout route={route} />;
}

/**
 * The session as the guard sees it. Entering the logged-in phase (a restored session, a login) mounts the whole shell
 * and its page: that one step is deferred, so React renders it in slices between frames instead of in one long task,
 * with the spinner meanwhile. Everything else is current: a deferred "logged out" or stale route list could send a
 * page that was just allowed to /login or /404.
 */
function useDeferredSession(): { phase: SessionPhase; permitted: readonly RouteNode[]; settled: boolean } {
  const phase = SessionContext.useSelector(selectPhase);
  const permitted = SessionContext.useSelector(selectPermittedRoutes);
  const settled = SessionContext.useSelector(selectRoutesSettled);
  const deferredPhase = useDeferredValue(phase);
  return { phase: phase === 'loggedIn' && deferredPhase !== 'loggedIn' ? 'pending' : phase, permitted, settled };
}

const NoPermission = lazy(() => import('@/features/errors/NoPermissionPage').then((m) => ({ default: m.NoPermissionPage })));
