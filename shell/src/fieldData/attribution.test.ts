import {
  codeBases,
  describeTarget,
  generateTarget,
  readTarget,
  remoteOfError,
  remoteOfNode,
  selectorOf,
} from './attribution';

const config = {
  entries: {
    candidates: 'http://localhost:3001/mf-manifest.json',
    jobs: 'https://cdn.example.com/jobs/v2/mf-manifest.json',
    employers: 'https://cdn.example.com/employers/mf-manifest.json',
  },
  integrity: {},
  devServers: {},
  problems: [],
};
const bases = codeBases(config, 'http://localhost:3000/');

describe('elements', () => {
  beforeEach(() => {
    document.body.innerHTML =
      '<a class="skip-link" href="#main-content">Skip</a>' +
      '<div id="root"><div class="progress"></div><div data-page-slot="jobs"><main><h1 class="b a">Jobs</h1></main></div></div>' +
      '<div data-remote="employers" data-build="b1"><main><section><p class="lead">Hire</p></section></main></div>';
  });

  it('are named by a selector up to the nearest id, as web-vitals names them', () => {
    expect(selectorOf(document.querySelector('h1')!)).toBe('#root>div>main>h1.a.b');
    expect(selectorOf(document.querySelector('p')!)).toBe('html>body>div>main>section>p.lead');
    const deep = document.createElement('div');
    deep.className = 'x'.repeat(60);
    deep.append(Object.assign(document.createElement('span'), { className: 'y'.repeat(60) }));
    expect(selectorOf(deep.firstChild!)).toBe(`span.${'y'.repeat(60)}`);
  });

  it("belong to the remote whose page holds them, rendered by the server or in the shell's page slot", () => {
    expect(remoteOfNode(document.querySelector('h1')!)).toBe('jobs');
    expect(remoteOfNode(document.querySelector('p')!.firstChild!)).toBe('employers');
    expect(remoteOfNode(document.querySelector('.progress')!)).toBe('shell');
    expect(remoteOfNode(document.querySelector('.skip-link')!)).toBe('shell');
  });

  it('keep their remote when their page left the document with them, and have none when it is unknown', () => {
    const h1 = document.querySelector('h1')!;
    document.querySelector('[data-page-slot]')!.remove();
    expect(remoteOfNode(h1)).toBe('jobs');
    const p = document.querySelector('p')!;
    p.remove();
    expect(remoteOfNode(p)).toBeUndefined();
    expect(describeTarget(p)).toEqual({ target: 'p.lead' });
  });

  it("travel through web-vitals' generateTarget with their remote, and come back apart", () => {
    const h1 = document.querySelector('h1')!;
    expect(readTarget(generateTarget(h1))).toEqual({ target: '#root>div>main>h1.a.b', targetRemote: 'jobs' });
    expect(readTarget(generateTarget(h1))).toEqual(describeTarget(h1));
    const detached = document.createElement('button');
    expect(readTarget(generateTarget(detached))).toEqual({ target: 'button' });
    // The browser's own selector, when the element was gone before web-vitals saw it.
    expect(readTarget('main>button.apply')).toEqual({ target: 'main>button.apply' });
    expect(generateTarget(null)).toBeUndefined();
    expect(readTarget(undefined)).toBeUndefined();
  });
});

describe('errors', () => {
  it("belong to the remote whose files threw, by the script's URL", () => {
    expect(remoteOfError(undefined, 'http://localhost:3001/262.0123456789.js', bases)).toBe('candidates');
    expect(remoteOfError(undefined, 'https://cdn.example.com/jobs/v2/__federation_expose_Page.js', bases)).toBe('jobs');
    expect(remoteOfError(undefined, 'http://localhost:3000/main.0123456789.js', bases)).toBe('shell');
  });

  it('by the innermost frame of the stack that is one of the site files, in the formats of three engines', () => {
    const chromium = [
      'TypeError: Cannot read properties of undefined',
      '    at apply (https://cdn.example.com/employers/412.abcdef0123.js:1:2045)',
      '    at HTMLButtonElement.onClick (http://localhost:3000/470.abcdef0123.js:2:100)',
    ].join('\n');
    expect(remoteOfError(chromium, 'http://localhost:3000/470.abcdef0123.js', bases)).toBe('employers');
    const firefox = 'apply@https://cdn.example.com/jobs/v2/412.js:1:2045\nonClick@http://localhost:3000/470.js:2:100\n';
    expect(remoteOfError(firefox, undefined, bases)).toBe('jobs');
    const webkit = 'apply@http://localhost:3001/1.js:1:20\n@http://localhost:3000/main.js:3:4';
    expect(remoteOfError(webkit, '', bases)).toBe('candidates');
    // Frames of code the site does not serve (an extension) are passed over.
    const extension = 'at x (chrome-extension://abc/content.js:1:1)\n    at y (http://localhost:3000/main.js:9:9)';
    expect(remoteOfError(extension, undefined, bases)).toBe('shell');
  });

  it('by the longest matching base: a remote served under the shell origin is still that remote', () => {
    const sameOrigin = codeBases(
      {
        entries: { jobs: 'http://localhost:3000/remotes/jobs/mf-manifest.json' },
        integrity: {},
        devServers: {},
        problems: [],
      },
      'http://localhost:3000/',
    );
    expect(remoteOfError(undefined, 'http://localhost:3000/remotes/jobs/1.js', sameOrigin)).toBe('jobs');
    expect(remoteOfError(undefined, 'http://localhost:3000/remotes/1.js', sameOrigin)).toBe('shell');
  });

  it("are the shell's when no file of the site is named: a script the browser hides, an extension's", () => {
    expect(remoteOfError(undefined, undefined, bases)).toBe('shell');
    expect(remoteOfError('Error: x\n    at <anonymous>', '', bases)).toBe('shell');
    expect(remoteOfError(undefined, 'chrome-extension://abc/content.js', bases)).toBe('shell');
    expect(remoteOfError(undefined, 'http://localhost:3009/1.js', bases)).toBe('shell');
  });

  it('know only the shell without remotes.json', () => {
    const shellOnly = codeBases(undefined, 'http://localhost:3000/');
    expect(remoteOfError(undefined, 'http://localhost:3001/1.js', shellOnly)).toBe('shell');
    expect(remoteOfError(undefined, 'http://localhost:3000/main.js', shellOnly)).toBe('shell');
  });
});
