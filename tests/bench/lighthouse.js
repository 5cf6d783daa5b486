// Lighthouse's performance category with its default (mobile) settings: a mid-range phone on a slow 4G connection,
// simulated (Lantern) from a trace of the real load. Run programmatically against the same Chromium as the bench.

/** Flags for the Chromium Lighthouse drives: the bench's own, in headless mode. */
function chromeFlags(args) {
  return ['--headless=new', ...args];
}

/**
 * @param {string[]} urls
 * @param {{ chromePath: string, args: string[], runs: number, log: (line: string) => void }} options
 * @returns {Promise<Record<string, object[]>>} every run's numbers, by URL
 */
async function runLighthouse(urls, { chromePath, args, runs, log }) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: chromeFlags(args) });
  const results = {};
  try {
    for (const url of urls) {
      results[url] = [];
      for (let run = 0; run < runs; run += 1) {
        const { lhr } = await lighthouse(url, {
          port: chrome.port,
          onlyCategories: ['performance'],
          logLevel: 'error',
          output: 'json',
        });
        if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
        const audit = (id) => lhr.audits[id]?.numericValue ?? null;
        const numbers = {
          score: Math.round((lhr.categories.performance.score ?? 0) * 100),
          fcp: audit('first-contentful-paint'),
          lcp: audit('largest-contentful-paint'),
          tbt: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
          si: audit('speed-index'),
          warnings: lhr.runWarnings,
        };
        log(
          `  lighthouse ${url} run ${run + 1}/${runs}: ${numbers.score} (LCP ${Math.round(numbers.lcp)} ms, ` +
            `TBT ${Math.round(numbers.tbt)} ms, CLS ${numbers.cls.toFixed(3)})`,
        );
        results[url].push(numbers);
      }
    }
  } finally {
    chrome.kill();
  }
  return results;
}

module.exports = { runLighthouse };
