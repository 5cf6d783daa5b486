// Async boundary: shared singletons are negotiated before the page's code runs (see shell/src/index.ts).
import('./bootstrap');
