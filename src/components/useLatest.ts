import { useLayoutEffect, useRef } from 'react';

/**
 * The latest value of a prop, for callbacks that must stay the same function across renders or that run after an
 * await (an upload's answer must land on the card as it is then, not as it was when the upload began).
 */
export function useLatest<V>(value: V) {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
