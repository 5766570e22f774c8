import { Redirect, useLocation, useSearch } from 'wouter';

/** /redirect/<full path> replaces itself with <full path>: how a tab reloads its page (spec §2.3). */
export function RedirectPage() {
  const [path] = useLocation();
  const search = useSearch();
  const target = path.replace(/^\/redirect/, '') || '/';
  return <Redirect to={search ? `${target}?${search}` : target} replace />;
}
