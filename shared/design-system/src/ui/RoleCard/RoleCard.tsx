import { useId } from 'react';
import { ButtonLink } from '../Button/Button';
import { Icon, type IconName } from '../Icon/Icon';
import styles from './RoleCard.module.css';

export interface RoleCardItem {
  title: string;
  description: string;
  icon: IconName;
  /** The function the role belongs to ("Sales", "Product"), shown above the title. */
  category?: string;
}

export interface RoleCardProps {
  role: RoleCardItem;
  /** The card's one action ("Apply Now", "Search") and where it leads. */
  action: { label: string; to: string };
}

/**
 * A role and its call to action. The card lifts and takes the brand colour while hovered, and while a control inside
 * it has keyboard focus, so keyboard users see the same highlight as mouse users.
 */
export function RoleCard({ role, action }: RoleCardProps) {
  const titleId = useId();
  return (
    <article className={styles.card} aria-labelledby={titleId}>
      <span className={styles.icon}>
        <Icon name={role.icon} />
      </span>
      {role.category && <p className={styles.category}>{role.category}</p>}
      <h3 id={titleId} className={styles.title}>
        {role.title}
      </h3>
      <p className={styles.description}>{role.description}</p>
      {/* Every card has the same label; the description names the role for screen-reader link lists. */}
      <ButtonLink to={action.to} variant="outline" aria-describedby={titleId} className={styles.action}>
        {action.label}
      </ButtonLink>
    </article>
  );
}
