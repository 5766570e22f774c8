import { Suspense, type ReactNode } from 'react';
import './controlSlot.css';

/**
 * A filter control's place until it is drawn (a page's later stage, see stages.ts) and its code is in: an empty field
 * of its size, so nothing moves when it comes.
 */
export function ControlSlot({ ready, width, children }: { ready: boolean; width: number; children: ReactNode }) {
  const place = <span className="control-slot" style={{ width }} aria-hidden />;
  return ready ? <Suspense fallback={place}>{children}</Suspense> : place;
}
