/** @jest-environment node */
const { spawn } = require('node:child_process');
const { processTable } = require('./processTable');

describe("the machine's process table", () => {
  it("has this process, its parent, and a child's CPU time as it grows", async () => {
    const own = processTable().find((row) => row.pid === globalThis.process.pid);
    expect(own?.parent).toBe(globalThis.process.ppid);
    // A child that spins for 300 ms of CPU, then waits to be read.
    const child = spawn(globalThis.process.execPath, [
      '-e',
      'const end = Date.now() + 300; while (Date.now() < end); setTimeout(() => {}, 10_000);',
    ]);
    try {
      const deadline = Date.now() + 10_000;
      let seconds = 0;
      while (seconds < 0.2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const row = processTable().find((candidate) => candidate.pid === child.pid);
        expect(row?.parent).toBe(globalThis.process.pid);
        seconds = row?.cpuSeconds ?? 0;
      }
      expect(seconds).toBeGreaterThanOrEqual(0.2);
    } finally {
      child.kill();
    }
  }, 20_000);
});
