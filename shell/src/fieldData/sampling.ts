import { SAMPLE_RATE_META } from '@nativegtm/contract/fieldData';

/** A share written as operators write it: 0, 1, 0.25, .5 (no sign, no exponent, no percent). */
const SHARE = /^\s*(\d+\.?\d*|\.\d+)\s*$/;

/**
 * The share of documents whose page views are measured, from the document's `<meta name="nativegtm-rum-sample-rate">`:
 * all of them without one, none at 0. A value that is not a share from 0 to 1 measures all of them too: a typo in a
 * deployment's setting must not turn measuring off, nor break the page.
 */
export function sampleRate(doc: Document = document): number {
  const content = doc.querySelector<HTMLMetaElement>(`meta[name="${SAMPLE_RATE_META}"]`)?.content;
  if (content === undefined || !SHARE.test(content)) return 1;
  return Math.min(Number(content), 1);
}

/** One decision per document: every view of a measured document is measured. `random` is in [0, 1). */
export const sampled = (rate: number, random: number = Math.random()): boolean => random < rate;
