import '@testing-library/jest-dom';

// jsdom does not implement scrolling; the router's ScrollRestoration calls it on every navigation.
if (typeof window !== 'undefined') window.scrollTo = () => undefined;
