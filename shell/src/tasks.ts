/**
 * Runs `work` in a task of its own and resolves with its result. The start-up is split this way because each of its
 * steps is a long piece of main-thread work on a phone (measured in traces at 4x CPU throttling): back to back they
 * would be one task that blocks input for all of them, while the browser can handle input and paint between tasks.
 */
export function inTaskOfItsOwn<T>(work: () => Promise<T> | T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    setTimeout(() => {
      Promise.resolve().then(work).then(resolve, reject);
    }, 0);
  });
}

/** Runs `steps` one after the other, each in a task of its own; stops at the first that fails, with its error. */
export async function inTurns(steps: readonly (() => unknown)[]): Promise<void> {
  for (const step of steps) await inTaskOfItsOwn(step);
}

const documentLoaded = (): Promise<void> =>
  new Promise((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });

/**
 * Calls `callback` once the document has loaded, `after` have settled (fulfilled or not) and the browser is idle:
 * for work that is not part of the first page (prefetching the next pages, measuring this one). A page that is never
 * idle gets it after 3 s; a browser without requestIdleCallback (WebKit) one second after the rest.
 */
export function whenIdleAfter(after: readonly Promise<unknown>[], callback: () => void): void {
  const schedule = () => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => callback(), { timeout: 3000 });
    else setTimeout(callback, 1000);
  };
  void Promise.all([documentLoaded(), ...after.map((promise) => promise.catch(() => undefined))]).then(schedule);
}
