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
