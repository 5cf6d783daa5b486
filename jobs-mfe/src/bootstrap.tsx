import { renderStandalone } from '@nativegtm/design-system/standalone';
import Page from './Page';

// This page alone, for its team: `npm run dev` in this folder (the shell never loads this file).
renderStandalone(Page);
