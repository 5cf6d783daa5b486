import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tokenNames } from './tokens';

/*
 * Five separately built packages look like one site only while every colour comes from tokens.css. This test reads
 * every CSS Module of the shell, the remotes and the shared components, so a hard-coded colour fails here instead of
 * drifting into production unnoticed.
 */
const repoRoot = join(__dirname, '..', '..', '..', '..');
const styledFolders = [
  'shell/src',
  'candidates-mfe/src',
  'employers-mfe/src',
  'jobs-mfe/src',
  'coming-soon-mfe/src',
  'shared/design-system/src/ui',
];

const namedColours =
  `aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
  burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod
  darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon
  darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey
  dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey
  honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral
  lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue
  lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine
  mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise
  mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered
  orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
  rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue
  slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow
  yellowgreen`.split(/\s+/);

const colourLiteral = new RegExp(
  [
    '#[0-9a-f]{3,8}\\b',
    '\\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\\(',
    `\\b(?:${namedColours.join('|')})\\b`,
  ].join('|'),
  'gi',
);

function moduleCssFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return moduleCssFiles(path);
    return entry.name.endsWith('.module.css') ? [path] : [];
  });
}

const files = styledFolders.flatMap((folder) => moduleCssFiles(join(repoRoot, folder)));

interface Declaration {
  line: number;
  value: string;
}

/** Every declaration value in a stylesheet (comments removed), with the line it starts on. */
function declarations(css: string): Declaration[] {
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
  return [...withoutComments.matchAll(/:\s*([^;{}]+);/g)].map((match) => ({
    line: withoutComments.slice(0, match.index).split('\n').length,
    value: match[1]!,
  }));
}

const where = (file: string, line: number) => `${relative(repoRoot, file)}:${line}`;

describe('CSS Modules use design tokens', () => {
  it('finds the stylesheets to check', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.map((file) => relative(repoRoot, file))).toEqual(
      expect.arrayContaining([
        'coming-soon-mfe/src/ComingSoonPage.module.css',
        'shell/src/screens/StatusLayout.module.css',
      ]),
    );
  });

  it('recognises the colour literals it is meant to reject', () => {
    const sample = 'a { color: #fff; background: rgb(0 0 0 / 0.5); border-color: hsl(0 0% 0%); fill: white; }';
    const found = declarations(sample).flatMap(({ value }) => value.match(colourLiteral) ?? []);
    expect(found).toEqual(['#fff', 'rgb(', 'hsl(', 'white']);
    const allowed = 'a { color: var(--color-ink-900); white-space: nowrap; stroke: currentColor; }';
    expect(declarations(allowed).flatMap(({ value }) => value.match(colourLiteral) ?? [])).toEqual([]);
  });

  it('has no colour literal in any CSS Module: colours come from tokens.css', () => {
    const literals = files.flatMap((file) =>
      declarations(readFileSync(file, 'utf8')).flatMap(({ line, value }) =>
        (value.replace(/var\(--[a-z0-9-]+\)/g, '').match(colourLiteral) ?? []).map(
          (literal) => `${where(file, line)} ${literal}`,
        ),
      ),
    );
    expect(literals).toEqual([]);
  });

  it('refers only to tokens that exist (or to custom properties the component sets itself)', () => {
    const known = new Set<string>(tokenNames);
    const unknown = files.flatMap((file) => {
      const css = readFileSync(file, 'utf8');
      const folder = join(file, '..');
      const siblings = readdirSync(folder)
        .filter((name) => name.endsWith('.tsx'))
        .map((name) => readFileSync(join(folder, name), 'utf8'))
        .join('\n');
      const local = new Set([...css.matchAll(/(--[a-z0-9-]+)\s*:/g)].map((match) => match[1]!.slice(2)));
      return declarations(css).flatMap(({ line, value }) =>
        [...value.matchAll(/var\(--([a-z0-9-]+)/g)]
          .map((match) => match[1]!)
          .filter((name) => !known.has(name) && !local.has(name) && !siblings.includes(`'--${name}'`))
          .map((name) => `${where(file, line)} --${name}`),
      );
    });
    expect(unknown).toEqual([]);
  });
});
