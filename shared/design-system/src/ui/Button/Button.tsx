import type { ButtonHTMLAttributes, MouseEventHandler, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { VisuallyHidden } from '../VisuallyHidden/VisuallyHidden';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'inverse' | 'inverseOutline';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface Appearance {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Stretch to the width of the container. */
  block?: boolean;
  className?: string;
}

function classes({ variant = 'primary', size = 'md', block = false, className }: Appearance): string {
  return [styles.button, styles[variant], size !== 'md' && styles[size], block && styles.block, className]
    .filter(Boolean)
    .join(' ');
}

export type ButtonProps = Appearance & ButtonHTMLAttributes<HTMLButtonElement>;

/** An action on the current page. */
export function Button({ variant, size, block, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={classes({ variant, size, block, className })} {...rest} />;
}

export interface ButtonLinkProps extends Appearance {
  /** A site path ("/coming-soon") for client-side navigation, or an absolute / mailto: address. */
  to: string;
  children: ReactNode;
  /** Open in a new tab (external sign-up form). Adds rel="noopener noreferrer". */
  newTab?: boolean;
  'aria-label'?: string;
  'aria-describedby'?: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
}

const isOutside = (to: string) => /^(https?:|mailto:)/.test(to);

/** Navigation styled as a button: client-side for site paths, a plain link for outside addresses. */
export function ButtonLink({
  to,
  children,
  newTab = false,
  variant,
  size,
  block,
  className,
  ...rest
}: ButtonLinkProps) {
  const className_ = classes({ variant, size, block, className });
  if (isOutside(to)) {
    return (
      <a
        href={to}
        className={className_}
        {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
        {...rest}
      >
        {children}
        {newTab && <VisuallyHidden> (opens in a new tab)</VisuallyHidden>}
      </a>
    );
  }
  return (
    <Link to={to} className={className_} {...rest}>
      {children}
    </Link>
  );
}
