import type { ReactNode } from 'react';
import styles from './KeepCompounds.module.css';

const compound = /(\S+-\S+)/;

/**
 * Large headings are balanced over two or three lines, and browsers may break a line after any hyphen: "AI-" at a
 * line's end and "native" on the next reads badly. Hyphenated words are kept whole; the text itself is unchanged.
 */
export function KeepCompounds({ children }: { children: ReactNode }) {
  if (typeof children !== 'string') return children;
  return children.split(compound).map((part, index) =>
    compound.test(part) ? (
      <span key={index} className={styles.compound}>
        {part}
      </span>
    ) : (
      part
    ),
  );
}
