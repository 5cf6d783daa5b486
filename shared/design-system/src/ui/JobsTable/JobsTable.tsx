import { useId } from 'react';
import { ButtonLink } from '../Button/Button';
import { Icon } from '../Icon/Icon';
import { VisuallyHidden } from '../VisuallyHidden/VisuallyHidden';
import styles from './JobsTable.module.css';

export interface JobRow {
  position: string;
  location: string;
}

export interface JobsTableProps {
  /** What the table lists, for assistive technology (the section heading already says it on screen). */
  caption: string;
  jobs: readonly JobRow[];
  /** Every row's action ("Apply Now", "Hire Now") and where it leads. */
  action: { label: string; to: string };
}

/**
 * Open positions as a real table: Position, Location, Action. On phones each row is restyled as a stacked block
 * (position and location on the left, the action on the right), so nothing scrolls sideways.
 *
 * The explicit table roles look redundant, but some browsers drop a table's semantics once its rows are no longer
 * displayed as table rows; the roles keep it a table for screen readers at every width.
 */
export function JobsTable({ caption, jobs, action }: JobsTableProps) {
  const rowId = useId();
  /* eslint-disable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role --
     The explicit table roles are deliberate: the stacked phone layout changes the cells' CSS display, which makes
     some browsers drop the implicit table semantics. */
  return (
    <div className={styles.frame}>
      <table className={styles.table} role="table">
        <caption>
          <VisuallyHidden>{caption}</VisuallyHidden>
        </caption>
        <thead className={styles.head} role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Position
            </th>
            <th scope="col" role="columnheader">
              Location
            </th>
            <th scope="col" role="columnheader" className={styles.actionHeader}>
              Action
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {jobs.map((job, index) => (
            <tr key={job.position} role="row" className={styles.row}>
              <th scope="row" role="rowheader" id={`${rowId}-${index}`} className={styles.position}>
                {job.position}
              </th>
              <td role="cell" className={styles.location}>
                <Icon name="mapPin" className={styles.pin} />
                {job.location}
              </td>
              <td role="cell" className={styles.action}>
                {/* Every row has the same label; the description names the position for screen-reader link lists. */}
                <ButtonLink to={action.to} variant="secondary" size="sm" aria-describedby={`${rowId}-${index}`}>
                  {action.label}
                </ButtonLink>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  /* eslint-enable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role */
}
