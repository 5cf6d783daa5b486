import type { ReactNode } from 'react';
import styles from './PreviewCard.module.css';

export interface PreviewCardProps {
  /** What the illustration shows, for screen readers ("Example: …"). */
  label: string;
  title: string;
  /** A small pill at the end of the title row ("15 min", "FREE"). */
  tag?: string;
  tagTone?: 'brand' | 'success';
  /** Shows a "live" dot before the title. */
  live?: boolean;
  caption?: string;
  children: ReactNode;
}

/**
 * The card that illustrates a landing page's hero: a product glimpse (an interview, a shortlist). The hero text says
 * the same in words, so the card is a labelled figure rather than content of its own.
 */
export function PreviewCard({
  label,
  title,
  tag,
  tagTone = 'brand',
  live = false,
  caption,
  children,
}: PreviewCardProps) {
  return (
    <figure className={styles.card} aria-label={label}>
      <div className={styles.header}>
        {live && <span className={styles.live} aria-hidden="true" />}
        <span className={styles.title}>{title}</span>
        {tag && <span className={[styles.tag, styles[tagTone]].join(' ')}>{tag}</span>}
      </div>
      {children}
      {caption && <figcaption className={styles.caption}>{caption}</figcaption>}
    </figure>
  );
}
