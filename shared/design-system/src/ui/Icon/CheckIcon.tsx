import styles from './CheckIcon.module.css';

/** A check mark in a filled circle, for benefit lists. Decorative: the text beside it carries the meaning. */
export function CheckIcon({ className }: { className?: string }) {
  return (
    <svg
      className={[styles.check, className].filter(Boolean).join(' ')}
      viewBox="0 0 20 20"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M5 10.5l3.2 3.2L15 6.8" />
    </svg>
  );
}
