import '@testing-library/jest-dom';

// jsdom does not implement scrolling; the shell's scroll restoration calls it on every navigation.
if (typeof window !== 'undefined') window.scrollTo = () => undefined;
