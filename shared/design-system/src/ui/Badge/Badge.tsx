import type { ReactNode } from 'react';
import styles from './Badge.module.css';

export type BadgeTone = 'brand' | 'outline' | 'elite' | 'pro' | 'moderate' | 'other';

/** A small pill of text (job function, job type, skill level). Tones come from the design tokens. */
export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={[styles.badge, styles[tone]].join(' ')}>{children}</span>;
}
