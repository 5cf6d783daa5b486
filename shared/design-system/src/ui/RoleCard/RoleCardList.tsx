import { CardGrid } from '../CardGrid/CardGrid';
import { RoleCard, type RoleCardProps, type RoleCardItem } from './RoleCard';

export interface RoleCardListProps {
  roles: readonly RoleCardItem[];
  action: RoleCardProps['action'];
}

/** Role cards as a list, all with the same action. */
export function RoleCardList({ roles, action }: RoleCardListProps) {
  return (
    <CardGrid>
      {roles.map((role) => (
        <RoleCard key={role.title} role={role} action={action} />
      ))}
    </CardGrid>
  );
}
