import { pageLoader } from './remotes/federation';

/**
 * Runs `work` in a task of its own: each step of the start-up below is a long piece of main-thread work on a phone
 * (measured in a trace at 4x CPU throttling), and back to back they would be one task that blocks input for all.
 */
const nextTask = <T,>(work: () => Promise<T> | T) =>
  new Promise<T>((resolve, reject) => setTimeout(() => Promise.resolve().then(work).then(resolve, reject), 0));

// Evaluating React DOM (the largest module), then the shell's own modules (router, screens), then starting the shell:
// three tasks. The imports are eager: no new chunk, only where their evaluation happens.
void nextTask(() => import(/* webpackMode: "eager" */ 'react-dom/client'))
  .then(() =>
    nextTask(() =>
      Promise.all([
        import(/* webpackMode: "eager" */ './renderShell'),
        import(/* webpackMode: "eager" */ './remotes/prefetchPages'),
      ]),
    ),
  )
  .then(([{ renderShell }, { prefetchLikelyPages }]) =>
    nextTask(() => {
      const firstRouteSettled = renderShell(pageLoader);
      prefetchLikelyPages(pageLoader, firstRouteSettled);
    }),
  );
