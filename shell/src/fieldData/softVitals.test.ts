import { InteractionLog, ShiftLog, type LayoutShiftEntry } from './softVitals';

const event = (interactionId: number, duration: number, target: Node | null = null) =>
  ({ interactionId, duration, target, startTime: 0 }) as unknown as PerformanceEventTiming;

const shift = (startTime: number, value: number, node: Node | null = null, hadRecentInput = false) =>
  ({ startTime, value, hadRecentInput, sources: node ? [{ node }] : [] }) as unknown as LayoutShiftEntry;

describe("a soft view's INP", () => {
  it('is nothing before an interaction; events that are not interactions do not count', () => {
    const log = new InteractionLog();
    expect(log.inp()).toBeUndefined();
    log.add(event(0, 300));
    expect(log.inp()).toBeUndefined();
  });

  it("is its longest interaction, an interaction's latency being its longest event, with the element", () => {
    document.body.innerHTML = '<div data-page-slot="jobs"><button class="apply">Apply</button></div>';
    const button = document.querySelector('button')!;
    const log = new InteractionLog();
    log.add(event(1, 40));
    log.add(event(2, 120, button));
    log.add(event(2, 560, button));
    log.add(event(3, 80));
    expect(log.inp()).toEqual({ value: 560, target: { target: 'html>body>div>button.apply', targetRemote: 'jobs' } });
  });

  it('leaves out the longest interaction of every 50, as web-vitals does (its p98)', () => {
    const log = new InteractionLog();
    for (let id = 1; id <= 120; id += 1) log.add(event(id, id === 7 ? 900 : id === 8 ? 700 : 100 + id));
    // 120 interactions: the two longest are left out.
    expect(log.inp()?.value).toBe(220);
  });
});

describe("a soft view's CLS", () => {
  it('is 0 without shifts, and shifts just after input do not count', () => {
    const log = new ShiftLog();
    expect(log.cls()).toEqual({ value: 0 });
    log.add(shift(10, 0.5, null, true));
    expect(log.cls()).toEqual({ value: 0 });
  });

  it('is the largest session window: shifts less than 1 s apart, within 5 s of the first', () => {
    const log = new ShiftLog();
    log.add(shift(0, 0.05));
    log.add(shift(900, 0.05));
    // More than a second after the last: a new window.
    log.add(shift(2000, 0.04));
    expect(log.cls().value).toBeCloseTo(0.1);
    for (let at = 2500; at < 7600; at += 500) log.add(shift(at, 0.01));
    // 2000..6500 is one window (0.04 + 9 x 0.01); 7000, 5 s after its first shift, starts another.
    expect(log.cls().value).toBeCloseTo(0.13);
  });

  it("names the element of its window's largest shift, an element rather than text", () => {
    document.body.innerHTML =
      '<div data-remote="employers" data-build="b"><img class="hero"><p>text</p></div><div id="root"><div class="banner"></div></div>';
    const log = new ShiftLog();
    const text = document.querySelector('p')!.firstChild!;
    log.add({
      startTime: 0,
      value: 0.3,
      hadRecentInput: false,
      sources: [{ node: text }, { node: document.querySelector('img') }],
    } as unknown as LayoutShiftEntry);
    log.add(shift(100, 0.1, document.querySelector('.banner')));
    expect(log.cls()).toEqual({
      value: 0.4,
      target: { target: 'html>body>div>img.hero', targetRemote: 'employers' },
    });
  });
});
