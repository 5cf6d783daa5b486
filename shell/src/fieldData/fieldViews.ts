import {
  ATTRIBUTED_VITALS,
  MAX_ERRORS_PER_BEACON,
  MAX_VIEWS_PER_DOCUMENT,
  VITALS,
  rating,
  type Beacon,
  type FieldError,
  type View,
  type Vital,
  type VitalName,
} from '@nativegtm/contract/fieldData';
import type { Target } from './attribution';

/** A page view's records: what was measured and went wrong while it was on screen, and what has been sent of it. */
export interface ViewRecord {
  view: View;
  /** When it came on screen and left it (performance.now()); `end` is Infinity while it is on screen. */
  readonly start: number;
  end: number;
  /** Measured and not sent yet: the latest value of each vital. */
  readonly vitals: Map<VitalName, Vital>;
  /** Sent: a vital is sent once per view, with its value at the first beacon that carries it. */
  readonly sent: Set<VitalName>;
  /** Not sent yet. */
  errors: FieldError[];
  /** All of the view's errors so far: it keeps no more than one beacon carries. */
  errorCount: number;
  /** Whether its first beacon (`first: true`) has been sent. */
  opened: boolean;
}

/** Values as the beacon carries them: milliseconds to a tenth, layout shift scores to four places. */
const rounded = (name: VitalName, value: number) =>
  VITALS[name].unit === 'ms' ? Math.round(value * 10) / 10 : Math.round(value * 1e4) / 1e4;

/** The page views of one document, in order: its load (seq 0), then each in-app navigation. */
export class FieldViews {
  readonly all: ViewRecord[] = [];

  constructor(private readonly token: string | undefined) {}

  /** The view on screen; undefined before the first, and after MAX_VIEWS_PER_DOCUMENT (later pages are not measured). */
  current(): ViewRecord | undefined {
    const last = this.all.at(-1);
    return last?.end === Infinity ? last : undefined;
  }

  /**
   * A new view on screen from `at`: the next seq, 'document' for the first and 'navigation' after it. Ends the one
   * before, which it returns.
   */
  begin(at: number, view: Omit<View, 'seq' | 'nav'>): ViewRecord | undefined {
    const ended = this.current();
    if (ended) ended.end = at;
    const seq = this.all.length;
    if (seq >= MAX_VIEWS_PER_DOCUMENT) return ended;
    this.all.push({
      view: { seq, ...view, nav: seq === 0 ? 'document' : 'navigation' },
      start: seq === 0 ? 0 : at,
      end: Infinity,
      vitals: new Map(),
      sent: new Set(),
      errors: [],
      errorCount: 0,
      opened: false,
    });
    return ended;
  }

  /** The view that was on screen at `time`. */
  at(time: number): ViewRecord | undefined {
    return this.all.find((record) => record.start <= time && time < record.end);
  }

  /** A vital's latest value; the element that made it poor goes with a poor LCP, INP or CLS. */
  measure(record: ViewRecord, name: VitalName, value: number, target?: Target): void {
    if (record.sent.has(name)) return;
    const vital: Vital = { name, value: rounded(name, value) };
    const attributed = (ATTRIBUTED_VITALS as readonly VitalName[]).includes(name);
    if (target && attributed && rating(name, value) === 'poor') Object.assign(vital, target);
    record.vitals.set(name, vital);
  }

  fail(record: ViewRecord, error: FieldError): void {
    if (record.errorCount >= MAX_ERRORS_PER_BEACON) return;
    record.errorCount += 1;
    record.errors.push(error);
  }

  /**
   * The view's next beacon: its first (even with nothing measured yet: the view is counted from it), or one with
   * what was measured or went wrong since. Undefined when there is nothing new. `send` says whether the browser took
   * it; what it did not take stays for the next flush.
   */
  flush(record: ViewRecord, send: (beacon: Beacon) => boolean): void {
    if (record.opened && record.vitals.size === 0 && record.errors.length === 0) return;
    const beacon: Beacon = {
      v: 1,
      first: !record.opened,
      view: record.view,
      vitals: [...record.vitals.values()],
      errors: record.errors,
    };
    if (this.token) beacon.token = this.token;
    if (!send(beacon)) return;
    record.opened = true;
    for (const name of record.vitals.keys()) record.sent.add(name);
    record.vitals.clear();
    record.errors = [];
  }
}
