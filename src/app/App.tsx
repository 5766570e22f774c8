import { useEffect } from 'react';
import { Router } from 'wouter';
import { installErrorLog } from './errorLog';
import { RouterView } from './RouterView';
import { TabsProvider } from './tabs';
import './global.css';

export function App() {
  useEffect(() => installErrorLog(), []);
  return (
    <Router>
      <TabsProvider>
        <RouterView />
      </TabsProvider>
    </Router>
  );
}
