import { renderStandalone } from '@nativegtm/shared/standalone';
import Page from './Page';

// This page alone, for its team: `npm run dev` in this folder (the shell never loads this file).
renderStandalone(Page);
