// The bench's smallest React page (webpack.config.js): React DOM's own start-up on this machine. Started as the shell
// starts: React DOM's module is evaluated with this script, the hydration runs in the next task.
import { hydrateRoot } from 'react-dom/client';
import { FloorPage } from './floorPage';

const container = document.querySelector('body > [data-remote]');
if (!container) throw new Error('The floor page needs its server render (webpack.config.js)');
setTimeout(() => hydrateRoot(container, <FloorPage />), 0);
