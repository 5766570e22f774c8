/** The page's own dialogs open above the floating chat window (z-index 1002); the spec's dialog layers start at 2000. */
export const CHAT_MODAL_Z_INDEX = 2000;
