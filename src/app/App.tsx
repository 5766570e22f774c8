import { Router } from 'wouter';
import { RouterView } from './RouterView';
import './global.css';

export function App() {
  return (
    <Router>
      <RouterView />
    </Router>
  );
}
