import '@contract/jitless';
// antd's styles as one static sheet, first so the app's own rules come after it (AppProviders turns the runtime
// style generation off).
import 'antd/dist/antd.css';
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createDataClient } from '@workers/client';
import { App } from './app/App';
import { AppProviders } from './app/AppProviders';
import { loadInspector } from './app/createAppActor';
import { warmFormats } from './app/formats';
import { createI18n, detectLanguage, toLang } from './app/i18n';
import { preloadRoutePage } from './app/routes';
import { restoreSessionEarly } from './app/session';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

// The worker first: it loads and starts on its own thread while the main thread renders, and the session's first
// call waits for it. The opened page's chunk next, so it is in by the time the session lets the page render.
const client = createDataClient();
setTimeout(() => preloadRoutePage(window.location.pathname), 0);

function render(container: HTMLElement) {
  // A transition: the first render is time-sliced instead of one long task before anything can paint.
  startTransition(() => {
    createRoot(container).render(
      <AppProviders client={client} i18n={createI18n()}>
        <App />
      </AppProviders>,
    );
  });
}

// The first render in a task of its own: the scripts' evaluation and the reads it begins with (the language cookie,
// a synchronous call to the browser process) were one task of 25-40 ms at a cold start.
// The stored session goes to the worker in a task before it (reading the cookies is a synchronous call too), so the
// worker starts on an order page's first rows as soon as it runs.
if (process.env.NODE_ENV === 'development') void loadInspector().then(() => render(root));
else {
  setTimeout(() => restoreSessionEarly(client), 0);
  setTimeout(() => render(root), 0);
  // The lists' date and amount formatters in a task of their own, while the opened page's code downloads.
  setTimeout(() => warmFormats(toLang(detectLanguage())), 0);
}
