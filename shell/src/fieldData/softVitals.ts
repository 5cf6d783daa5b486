import { describeTarget, type Target } from './attribution';

// INP and CLS of a view that began with an in-app navigation, from the Event Timing and Layout Instability entries of
// that view alone, by web-vitals' definitions. web-vitals measures them for the whole document (and, with
// `reportSoftNavs`, per soft navigation only where the browser has the Soft Navigations API: Chromium 151 and later,
// and with its own idea of a navigation); this measures every browser that has the entries, with the shell's.

/** The part of a layout-shift entry this reads (TypeScript's DOM library does not describe it yet). */
export interface LayoutShiftEntry extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
  sources?: readonly { node: Node | null }[];
}

/** How web-vitals measures a long page: for every 50 interactions, the longest one is left out (a p98). */
const INTERACTIONS_PER_OUTLIER = 50;
/** web-vitals keeps this many of the longest interactions, enough for the p98 of any page. */
const KEPT_INTERACTIONS = 10;

export interface Measured {
  value: number;
  target?: Target;
}

/** INP: an interaction's latency is its longest event's duration; INP is the longest, but one per 50 interactions. */
export class InteractionLog {
  private count = 0;
  private readonly longest: { id: number; duration: number; target?: Target }[] = [];

  add(entry: PerformanceEventTiming): void {
    if (!entry.interactionId) return;
    const known = this.longest.find((interaction) => interaction.id === entry.interactionId);
    if (known) {
      if (entry.duration <= known.duration) return;
      known.duration = entry.duration;
    } else {
      this.count += 1;
      this.longest.push({ id: entry.interactionId, duration: entry.duration });
    }
    const interaction = known ?? this.longest.at(-1)!;
    // Described now: the element may be gone from the page when the view is sent.
    if (entry.target) interaction.target = describeTarget(entry.target);
    this.longest.sort((a, b) => b.duration - a.duration);
    this.longest.length = Math.min(this.longest.length, KEPT_INTERACTIONS);
  }

  /** Undefined until the view has had an interaction. */
  inp(): Measured | undefined {
    const interaction =
      this.longest[Math.min(this.longest.length - 1, Math.floor(this.count / INTERACTIONS_PER_OUTLIER))];
    return interaction && { value: interaction.duration, target: interaction.target };
  }
}

/** A session window ends after a second without shifts, or five seconds after its first. */
const SESSION_GAP = 1000;
const SESSION_MAX = 5000;

/** CLS: the largest sum of unexpected shifts in one session window; its largest shift names the element. */
export class ShiftLog {
  private session = { value: 0, first: 0, last: 0, largest: 0, target: undefined as Target | undefined };
  private max: Measured = { value: 0 };

  add(entry: LayoutShiftEntry): void {
    if (entry.hadRecentInput) return;
    const session = this.session;
    const continues =
      session.value > 0 &&
      entry.startTime - session.last < SESSION_GAP &&
      entry.startTime - session.first < SESSION_MAX;
    if (!continues) this.session = { value: 0, first: entry.startTime, last: 0, largest: 0, target: undefined };
    const current = this.session;
    current.value += entry.value;
    current.last = entry.startTime;
    if (entry.value > current.largest) {
      current.largest = entry.value;
      // web-vitals' choice of source: the first that is an element, else the first.
      const source = entry.sources?.find(({ node }) => node?.nodeType === Node.ELEMENT_NODE) ?? entry.sources?.[0];
      current.target = source?.node ? describeTarget(source.node) : undefined;
    }
    if (current.value > this.max.value) this.max = { value: current.value, target: current.target };
  }

  /** 0 for a view without unexpected shifts. */
  cls(): Measured {
    return this.max;
  }
}
