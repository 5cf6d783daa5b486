import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';

/**
 * Renders one page on its own, for the team that owns it (`npm run dev -w <remote>`): the same component the shell
 * loads, inside a router so its links work, with the shared design system.
 */
export function renderStandalone(Page: ComponentType, container = document.getElementById('root')): void {
  if (!container) throw new Error('renderStandalone: no #root element in the page');
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <Page />
      </BrowserRouter>
    </StrictMode>,
  );
}
