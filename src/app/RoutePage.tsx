import { Spin } from 'antd';
import { createContext, Suspense, use, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { doneProgress } from './progressBar';
import type { AppRoute } from './routes';

/**
 * One route's page, with its loading state: what the router (RouterView.tsx) and the tab cache (layout/CachedViews.tsx)
 * both show, apart from either so that neither imports the other.
 */
export function FullPageSpin() {
  const { t } = useTranslation();
  return (
    <div className="app-full-spin" role="status" aria-live="polite">
      <Spin size="large" />
      <span>{t('common.loading')}</span>
    </div>
  );
}

export function ProgressDone() {
  useEffect(() => {
    doneProgress();
  }, []);
  return null;
}

const PageRouteContext = createContext<AppRoute | null>(null);

/**
 * The route a page was opened for. A cached page hidden behind another tab still re-renders while hidden, and the
 * location then names the other tab's page: a page that shows its own route's texts reads them from here.
 */
export function usePageRoute(): AppRoute | null {
  return use(PageRouteContext);
}

export function RoutePage({ route }: { route: AppRoute }) {
  const Page = route.page;
  if (!Page) return <ProgressDone />;
  return (
    <PageRouteContext value={route}>
      <Suspense fallback={<FullPageSpin />}>
        <Page />
        <ProgressDone />
      </Suspense>
    </PageRouteContext>
  );
}
