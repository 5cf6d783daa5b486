import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Footer } from './Footer';

describe('Footer', () => {
  it('shows the copyright with the year of the render, not a hard-coded one', () => {
    render(
      <MemoryRouter>
        <Footer now={() => new Date('2031-03-04T12:00:00Z')} />
      </MemoryRouter>,
    );
    expect(screen.getByText('© 2031 NativeGTM. All rights reserved.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('lists the links a page passes, in order', () => {
    render(
      <MemoryRouter>
        <Footer
          links={[
            { label: 'Candidates', to: '/' },
            { label: 'Employers', to: '/employers' },
          ]}
        />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Footer' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Candidates', '/'],
      ['Employers', '/employers'],
    ]);
  });
});
