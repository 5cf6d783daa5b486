import { Children, isValidElement, type ReactNode } from 'react';
import styles from './CardGrid.module.css';

export interface CardGridProps {
  /** One child per card; each becomes a list item. */
  children: ReactNode;
  className?: string;
}

/**
 * A list laid out as a grid of equal cards. Rows are centred, so an odd count ends on a balanced row (five cards:
 * three, then two) instead of a lone stretched card; four cards sit in one row on wide screens.
 */
export function CardGrid({ children, className }: CardGridProps) {
  const items = Children.toArray(children);
  const columns = items.length % 4 === 0 ? 4 : 3;
  return (
    <ul className={[styles.grid, className].filter(Boolean).join(' ')} data-columns={columns}>
      {items.map((item, index) => (
        <li key={isValidElement(item) && item.key !== null ? item.key : index} className={styles.item}>
          {item}
        </li>
      ))}
    </ul>
  );
}
