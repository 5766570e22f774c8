import { createRoot } from 'react-dom/client';
import { createDataClient } from '@workers/client';
import { App } from './app/App';
import { AppProviders } from './app/AppProviders';
import { createI18n } from './app/i18n';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

createRoot(root).render(
  <AppProviders client={createDataClient()} i18n={createI18n()}>
    <App />
  </AppProviders>,
);
