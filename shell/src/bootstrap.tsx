import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { pageLoader } from './remotes/federation';
import { createRoutes, logRouteError } from './router';

const container = document.getElementById('root');
if (!container) throw new Error('The shell needs a #root element in index.html');

const router = createBrowserRouter(createRoutes(pageLoader));

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} onError={(error, info) => logRouteError(error, info.pattern)} />
  </StrictMode>,
);
