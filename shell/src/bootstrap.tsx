import { pageLoader } from './remotes/federation';
import { renderShell } from './renderShell';

renderShell(pageLoader);
