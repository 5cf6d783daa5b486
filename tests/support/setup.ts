// Browser tests wait on real servers and builds; jest's 5 s default is too tight on a loaded 2-core machine.
// (testTimeout is a global option and is ignored in a project config.)
jest.setTimeout(60_000);
