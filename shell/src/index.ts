// The async boundary Module Federation needs: shared singletons (React, the router, the design system) are
// negotiated while this import loads, before any of them is used. Importing bootstrap statically renders nothing.
import('./bootstrap');
