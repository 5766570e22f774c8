/** Overlay layers start at 2000 (chat-widget spec §9); each opened dialog sits above the last one opened. */
export const BASE_Z_INDEX = 2000;

let current = BASE_Z_INDEX;

export function nextZIndex(): number {
  current += 1;
  return current;
}
