import { inTaskOfItsOwn, inTurns, whenIdleAfter } from './tasks';

describe('start-up tasks', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs work only in a later task, and resolves with its result', async () => {
    const work = jest.fn(() => 42);
    const result = inTaskOfItsOwn(work);
    await Promise.resolve();
    expect(work).not.toHaveBeenCalled();
    jest.runOnlyPendingTimers();
    await expect(result).resolves.toBe(42);
  });

  it("runs steps in order, one per task, waiting for each step's promise", async () => {
    const ran: string[] = [];
    let finishFirst!: () => void;
    const done = inTurns([
      () => new Promise<void>((resolve) => (finishFirst = () => (ran.push('first'), resolve()))),
      () => ran.push('second'),
    ]);
    jest.runOnlyPendingTimers();
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toEqual([]);
    jest.runOnlyPendingTimers();
    expect(jest.getTimerCount()).toBe(0);
    finishFirst();
    await Promise.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toEqual(['first']);
    // The second step waits for a task of its own.
    expect(jest.getTimerCount()).toBe(1);
    jest.runOnlyPendingTimers();
    await done;
    expect(ran).toEqual(['first', 'second']);
  });

  it('stops at the first step that fails, with its error', async () => {
    const after = jest.fn();
    const done = inTurns([() => Promise.reject(new Error('chunk failed')), after]);
    const settled = done.catch((error: unknown) => error);
    await jest.runAllTimersAsync();
    expect(await settled).toEqual(new Error('chunk failed'));
    expect(after).not.toHaveBeenCalled();
  });
});

describe('whenIdleAfter', () => {
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
  afterEach(() => Reflect.deleteProperty(window, 'requestIdleCallback'));

  it('waits for what it is given, failed or not, then for idle time (the document of jsdom has loaded)', async () => {
    const idle: { callback: () => void; timeout: number | undefined }[] = [];
    window.requestIdleCallback = ((callback: () => void, options?: IdleRequestOptions) => {
      idle.push({ callback, timeout: options?.timeout });
      return idle.length;
    }) as typeof window.requestIdleCallback;
    let fail!: () => void;
    const callback = jest.fn();
    whenIdleAfter(
      [Promise.resolve(), new Promise<void>((_, reject) => (fail = () => reject(new Error('x'))))],
      callback,
    );
    await flush();
    expect(idle).toEqual([]);
    fail();
    await flush();
    expect(idle.map(({ timeout }) => timeout)).toEqual([3000]);
    expect(callback).not.toHaveBeenCalled();
    idle[0]!.callback();
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('waits a second instead where there is no requestIdleCallback (WebKit)', async () => {
    jest.useFakeTimers();
    try {
      const callback = jest.fn();
      whenIdleAfter([], callback);
      await jest.advanceTimersByTimeAsync(999);
      expect(callback).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      expect(callback).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
