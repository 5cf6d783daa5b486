import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { JobsTable } from './JobsTable';

const jobs = [
  { position: 'Sales Engineer', location: 'US' },
  { position: 'Product Manager - SAAS', location: 'US' },
];

function renderTable() {
  render(
    <MemoryRouter>
      <JobsTable caption="Featured jobs" jobs={jobs} action={{ label: 'Apply Now', to: '/coming-soon' }} />
    </MemoryRouter>,
  );
}

describe('JobsTable', () => {
  it('is a real table with Position, Location and Action column headers', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Featured jobs' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Position', 'Location', 'Action']);
    for (const header of headers) expect(header).toHaveAttribute('scope', 'col');
  });

  it('has one row per job, headed by the position, with the action to its target', () => {
    renderTable();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = rows[0]!;
    expect(within(first).getByRole('rowheader')).toHaveTextContent('Sales Engineer');
    expect(within(first).getByRole('rowheader')).toHaveAttribute('scope', 'row');
    expect(within(first).getByRole('cell', { name: 'US' })).toBeInTheDocument();
    const action = within(first).getByRole('link', { name: 'Apply Now' });
    expect(action).toHaveAttribute('href', '/coming-soon');
    expect(action).toHaveAccessibleDescription('Sales Engineer');
  });
});
