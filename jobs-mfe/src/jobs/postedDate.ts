// A calendar date has no time zone: it is read and printed in UTC, or visitors west of Greenwich would see the day
// before. The month names are a table rather than an Intl.DateTimeFormat: creating that formatter costs the page
// about 20 ms of main thread when its chunk starts (four times that on a mid-range phone), for twelve fixed words.
// A test checks the table against Intl's en-US output.
const US_SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2025-06-15` → `Jun 15, 2025`, the same day for visitors in every time zone. */
export function formatPostedDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  // The round trip rejects what Date would otherwise accept or roll over (`2025-6-1`, `2025-02-30`).
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== isoDate) {
    throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${isoDate}`);
  }
  return `${US_SHORT_MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
