// The formatter runs in UTC on a UTC midnight: a calendar date has no time zone, and formatting it in the
// visitor's zone would show the day before to everyone west of Greenwich.
const usShortDate = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `2025-06-15` → `Jun 15, 2025`, the same day for visitors in every time zone. */
export function formatPostedDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  // The round trip rejects what Date would otherwise accept or roll over (`2025-6-1`, `2025-02-30`).
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== isoDate) {
    throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${isoDate}`);
  }
  return usShortDate.format(date);
}
