import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { RoleCardList } from './RoleCardList';
import type { RoleCardItem } from './RoleCard';

const roles: RoleCardItem[] = [
  { title: 'Sales Engineer', description: 'Run technical demos.', icon: 'code', category: 'Sales' },
  { title: 'Product Manager', description: 'Ship AI products.', icon: 'compass' },
];

function renderList() {
  render(
    <MemoryRouter>
      <RoleCardList roles={roles} action={{ label: 'Apply Now', to: '/coming-soon' }} />
    </MemoryRouter>,
  );
}

describe('RoleCardList', () => {
  it('lists one card per role, each with an h3 title, its description and the action', () => {
    renderList();
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('heading', { level: 3 })).toHaveTextContent('Sales Engineer');
    expect(within(first).getByText('Run technical demos.')).toBeInTheDocument();
    expect(within(first).getByText('Sales')).toBeInTheDocument();
    expect(within(second).getByRole('heading', { level: 3 })).toHaveTextContent('Product Manager');
    for (const item of items) {
      expect(within(item).getByRole('link', { name: 'Apply Now' })).toHaveAttribute('href', '/coming-soon');
    }
  });

  it('names each card after its role and ties the repeated action label to it', () => {
    renderList();
    expect(screen.getByRole('article', { name: 'Sales Engineer' })).toBeInTheDocument();
    const [firstLink, secondLink] = screen.getAllByRole('link', { name: 'Apply Now' }) as [HTMLElement, HTMLElement];
    expect(firstLink).toHaveAccessibleDescription('Sales Engineer');
    expect(secondLink).toHaveAccessibleDescription('Product Manager');
  });

  it('uses the card style that highlights on hover and on keyboard focus inside', () => {
    renderList();
    // The highlight itself is CSS (.card:hover, .card:focus-within); the browser tests check that it shows.
    expect(screen.getByRole('article', { name: 'Product Manager' })).toHaveClass('card');
  });
});
