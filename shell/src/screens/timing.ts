/** Loads faster than this show no indicator at all (no flash for fast loads). */
export const LOADING_INDICATOR_DELAY_MS = 300;
