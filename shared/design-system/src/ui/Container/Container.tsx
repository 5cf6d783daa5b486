import type { ElementType, ReactNode } from 'react';
import styles from './Container.module.css';

export interface ContainerProps {
  children: ReactNode;
  as?: ElementType;
  className?: string;
}

/** The site's content column: one max width and one gutter for every page. */
export function Container({ children, as: Tag = 'div', className }: ContainerProps) {
  return <Tag className={[styles.container, className].filter(Boolean).join(' ')}>{children}</Tag>;
}
