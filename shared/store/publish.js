// Publishes a remote's build as an immutable release: its files are copied into the store under an id computed from
// their names and contents, read-only, and appear in one rename once everything else is in place (the hashed files
// linked into assets/, the record written). A publish cut short at any moment leaves no release behind, only an
// .incoming folder that the next prune removes. Publishing the same files twice gives the same id and changes nothing.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { HASHED_ASSET } = require('@nativegtm/contract/assetNames');
const { FRAGMENT_DIR, foreignDirectives, parsePageManifest, fragmentPaths } = require('@nativegtm/contract/fragments');
const {
  INTEGRITY_ALGORITHM,
  INTEGRITY_FILE,
  fragmentIntegrityFor,
  fragmentIntegrityOf,
  integrityListFor,
  parseIntegrityList,
} = require('@nativegtm/contract/integrity');
const { syncDirectory, syncTree } = require('./durableFiles');
const { writeJsonAtomically } = require('./records');
const { thisActor } = require('./actor');
const { StoreRefusal } = require('./storeRefusal');

/** @typedef {import('./layout').StoreLayout} StoreLayout */
/** @typedef {import('./records').ReleaseRecord} ReleaseRecord */

/**
 * Every file under `dir`, as paths relative to it with "/" separators, sorted.
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(dir) {
  return /** @type {string[]} */ (fs.readdirSync(dir, { recursive: true }))
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}

/**
 * The release id of a build: the first 16 hex digits of a SHA-256 over each file's name and the SHA-256 of its bytes.
 * @param {string} dir
 * @param {string[]} files
 */
function releaseId(dir, files) {
  const hash = createHash('sha256');
  for (const file of files) {
    const content = createHash('sha256')
      .update(fs.readFileSync(path.join(dir, file)))
      .digest('hex');
    hash.update(`${file}\0${content}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A content-hashed file (and its compressed copies and source map), shared between releases under its name.
 * @param {string} file
 */
const isHashedFile = (file) => !file.includes('/') && HASHED_ASSET.test(file.replace(/\.(br|gz|map)$/, ''));

/** How many foreign directives a refusal quotes, and how much of each: enough to find them in the files. */
const QUOTED_DIRECTIVES = 5;
const QUOTED_LENGTH = 80;

/**
 * Refuses a build whose server-rendered files hold SSI directives the build does not write (foreignDirectives):
 * the servers would run them on the site's origin. Says which, in which file.
 * @param {string} dir
 */
function checkDirectives(dir) {
  const ssr = path.join(dir, FRAGMENT_DIR);
  const files = [
    { file: fragmentPaths.head, part: /** @type {const} */ ('head') },
    ...listed(path.join(ssr, 'body')).map((name) => ({
      file: `${FRAGMENT_DIR}/body/${name}`,
      part: /** @type {const} */ ('body'),
    })),
  ];
  const found = files.flatMap(({ file, part }) => {
    let text;
    try {
      text = fs.readFileSync(path.join(dir, file), 'utf8');
    } catch {
      return [];
    }
    return foreignDirectives(text, part).map((directive) => `${file}: ${directive.slice(0, QUOTED_LENGTH)}`);
  });
  if (found.length === 0) return;
  const more = found.length > QUOTED_DIRECTIVES ? ` (and ${found.length - QUOTED_DIRECTIVES} more)` : '';
  throw new StoreRefusal(
    `${dir} has SSI directives its build does not write, which the servers would run: ` +
      `${found.slice(0, QUOTED_DIRECTIVES).join('; ')}${more}`,
  );
}

/**
 * The names in a folder, none when it cannot be read.
 * @param {string} dir
 */
function listed(dir) {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/**
 * The integrity list a build's files call for as they are (@nativegtm/contract/integrity): the build's
 * (integrity.json), or its server-rendered files' (ssr/manifest.json's).
 * @param {string} dir
 * @param {'build' | 'fragments'} [which]
 * @returns {Record<string, string>}
 */
function integrityListOf(dir, which = 'build') {
  const digest = (/** @type {string} */ file) =>
    createHash(INTEGRITY_ALGORITHM)
      .update(fs.readFileSync(path.join(dir, file)))
      .digest('base64');
  return (which === 'build' ? integrityListFor : fragmentIntegrityFor)(filesUnder(dir), digest);
}

/** How many files a refusal of an integrity list names: enough to find the build's mistake. */
const NAMED_FILES = 3;

/** @param {string[]} files */
const someOf = (files) =>
  `${files.slice(0, NAMED_FILES).join(', ')}${files.length > NAMED_FILES ? ` (and ${files.length - NAMED_FILES} more)` : ''}`;

/**
 * Refuses a list unless it names exactly the files `actual` does, each with the integrity of its bytes.
 * @param {string} dir
 * @param {string} name the list's file, for the refusal
 * @param {Record<string, string>} listed
 * @param {Record<string, string>} actual
 * @param {string} consequence what a file the list lacks would do
 */
function checkList(dir, name, listed, actual, consequence) {
  const unlisted = Object.keys(actual).filter((file) => !Object.hasOwn(listed, file));
  if (unlisted.length > 0) {
    throw new StoreRefusal(`${dir}'s ${name} does not list ${someOf(unlisted)}: ${consequence}`);
  }
  const absent = Object.keys(listed).filter((file) => !Object.hasOwn(actual, file));
  if (absent.length > 0) {
    throw new StoreRefusal(`${dir}'s ${name} names files the build does not have: ${someOf(absent)}`);
  }
  const differ = Object.keys(actual).filter((file) => actual[file] !== listed[file]);
  if (differ.length > 0) {
    throw new StoreRefusal(`${dir}'s ${name} does not match the bytes of ${someOf(differ)}`);
  }
}

/**
 * The build's integrity list (@nativegtm/contract/integrity), refused unless it names exactly the files of the build a
 * browser may load and its ssr/manifest.json, each with the integrity of its bytes, and that manifest names each
 * other server-rendered file the same way: browsers load nothing that a release's list does not name or whose bytes
 * differ, and the document server pastes no such HTML, so a list that is stripped, short or wrong would break the
 * page for every visitor, or name a file that is not there.
 * @param {string} dir
 * @param {{ fragmentsListed?: boolean }} [options] fragmentsListed false: a build as a record made before lists named
 *   ssr/manifest.json has it (a node's copy of such a release): its server-rendered files are checked by no list
 * @returns {Record<string, string>}
 */
function checkIntegrity(dir, { fragmentsListed = true } = {}) {
  let text;
  try {
    text = fs.readFileSync(path.join(dir, INTEGRITY_FILE), 'utf8');
  } catch (error) {
    throw new StoreRefusal(`${dir} lists no file's integrity: ${INTEGRITY_FILE} ${describe(error)}`);
  }
  let listed;
  try {
    listed = parseIntegrityList(text);
  } catch (error) {
    throw new StoreRefusal(`${dir}: ${/** @type {Error} */ (error).message}`);
  }
  const actual = integrityListOf(dir);
  if (!fragmentsListed) delete actual[fragmentPaths.manifest];
  checkList(dir, INTEGRITY_FILE, listed, actual, 'browsers would refuse them');
  if (fragmentsListed) checkFragmentIntegrity(dir);
  // The servers send a file's precompressed copy to a browser that takes it: one that is not the file, the browser
  // would refuse (a stale .br beside a rebuilt file), for every visitor whose browser takes that encoding.
  // The list's own copies too: a browser given a stale one would refuse every file of the release.
  const stale = [...Object.keys(actual), INTEGRITY_FILE].flatMap((file) =>
    COMPRESSED.filter(({ extension, inflate }) => !sameWhenInflated(dir, file, extension, inflate)).map(
      ({ extension }) => `${file}${extension}`,
    ),
  );
  if (stale.length > 0) {
    throw new StoreRefusal(`${dir} has compressed copies that are not their files' bytes: ${someOf(stale)}`);
  }
  return actual;
}

/**
 * Refuses the build unless its ssr/manifest.json names each of its other server-rendered files with the integrity
 * of its bytes (checkBuild read the manifest already).
 * @param {string} dir
 */
function checkFragmentIntegrity(dir) {
  let listed;
  try {
    listed = fragmentIntegrityOf(JSON.parse(fs.readFileSync(path.join(dir, fragmentPaths.manifest), 'utf8')));
  } catch (error) {
    throw new StoreRefusal(`${dir}: ${/** @type {Error} */ (error).message}`);
  }
  const consequence = 'the document server would leave them out';
  checkList(dir, `${fragmentPaths.manifest}'s integrity`, listed, integrityListOf(dir, 'fragments'), consequence);
}

/** The precompressed copies the servers send, and how each inflates. */
const COMPRESSED = [
  { extension: '.gz', inflate: zlib.gunzipSync },
  { extension: '.br', inflate: zlib.brotliDecompressSync },
];

/**
 * Whether the file's compressed copy, if it has one, inflates to the file's bytes: inflated no further than one byte
 * past them, so an archive's bomb costs nothing.
 * @param {string} dir
 * @param {string} file
 * @param {string} extension
 * @param {(buffer: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Buffer} inflate
 */
function sameWhenInflated(dir, file, extension, inflate) {
  let compressed;
  try {
    compressed = fs.readFileSync(path.join(dir, `${file}${extension}`));
  } catch {
    return true;
  }
  const bytes = fs.readFileSync(path.join(dir, file));
  try {
    return inflate(compressed, { maxOutputLength: bytes.length + 1 }).equals(bytes);
  } catch {
    return false;
  }
}

/**
 * What makes a folder a build of this remote: an mf-manifest.json, and the ssr/manifest.json the shell's servers
 * read, both naming this remote, and server-rendered files with no SSI directive but the ones the build writes. (The
 * integrity of its files is checkIntegrity's.)
 * @param {string} dir
 * @param {string} remote
 * @returns {string} the build id
 */
function checkBuild(dir, remote) {
  /** @type {{ name?: string }} */
  let federation;
  try {
    federation = JSON.parse(fs.readFileSync(path.join(dir, 'mf-manifest.json'), 'utf8'));
  } catch (error) {
    throw new StoreRefusal(`${dir} is not a build of a remote: mf-manifest.json ${describe(error)}`);
  }
  if (federation.name !== remote) {
    throw new StoreRefusal(`${dir} is a build of "${federation.name}", not of "${remote}"`);
  }
  let buildId;
  try {
    buildId = parsePageManifest(fs.readFileSync(path.join(dir, fragmentPaths.manifest), 'utf8'), remote).buildId;
  } catch (error) {
    throw new StoreRefusal(
      `${dir} has no server-rendered page for "${remote}": ${fragmentPaths.manifest} ${describe(error)}`,
    );
  }
  checkDirectives(dir);
  return buildId;
}

/** @param {unknown} error */
function describe(error) {
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  return code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? /** @type {Error} */ (error).message})`;
}

/**
 * Links `source` to `target` (or copies it where links cannot be made), unless `target` already has the same bytes.
 * Two different files under one content-hashed name would be a broken build: refused.
 * @param {string} source
 * @param {string} target
 */
function shareFile(source, target) {
  try {
    fs.linkSync(source, target);
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'EEXIST') {
      if (!fs.readFileSync(source).equals(fs.readFileSync(target))) {
        throw new Error(`${path.basename(target)} differs from the file of that name in an earlier release`);
      }
    } else if (code === 'EXDEV' || code === 'EPERM') {
      fs.copyFileSync(source, target, fs.constants.COPYFILE_EXCL);
    } else {
      throw error;
    }
  }
}

/**
 * Publishes the build in `buildDir` as a release of `remote`. Returns its id and whether it was already there.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {string} buildDir
 * @param {{ commit: string | null, dirty: boolean, by?: string, now?: () => Date, record?: ReleaseRecord,
 *   fence?: import('./storeLock').Fence }} source
 *   by: who publishes it (this process's user and host unless given); record: the release's record as another store
 *   has it (a node's copy of the store on PostgreSQL), whose id must be the files'; fence: the store's lock's, checked
 *   before each file shared into assets/, the record and the rename (the copy in .incoming/ is seen by no one)
 * @returns {{ id: string, existed: boolean }}
 */
function publishRelease(
  layout,
  remote,
  buildDir,
  { commit, dirty, by, now = () => new Date(), record: given, fence = () => {} },
) {
  const buildId = checkBuild(buildDir, remote);
  // A node's copy of a release recorded before records held its files' integrity: copied as it is recorded (the
  // store refuses to make it live, and browsers refuse its files), so the node's copy is the database's. One recorded
  // before lists named ssr/manifest.json: checked as far as its record goes (the servers paste none of its HTML).
  const fragmentsListed = !given?.integrity || Object.hasOwn(given.integrity, fragmentPaths.manifest);
  const integrity = given && !given.integrity ? undefined : checkIntegrity(buildDir, { fragmentsListed });
  const files = filesUnder(buildDir);
  const id = releaseId(buildDir, files);
  if (given && given.id !== id) throw new Error(`the files of release ${given.id} of ${remote} are release ${id}`);
  if (given?.integrity && integrity && !sameIntegrity(given.integrity, integrity)) {
    throw new StoreRefusal(`the files of release ${id} of ${remote} do not have the integrity its record names`);
  }
  if (fs.existsSync(layout.release(id))) return { id, existed: true };

  for (const dir of [layout.dir, layout.assets, layout.records, layout.incoming])
    fs.mkdirSync(dir, { recursive: true });
  const incoming = fs.mkdtempSync(path.join(layout.incoming, `${id}-`));
  try {
    for (const file of files) {
      const target = path.join(incoming, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(buildDir, file), target);
      // Read-only: a release's files never change once published.
      fs.chmodSync(target, 0o444);
    }
    const hashedFiles = files.filter(isHashedFile);
    for (const file of hashedFiles) {
      fence();
      shareFile(path.join(incoming, file), path.join(layout.assets, file));
    }
    syncDirectory(layout.assets);
    /** @type {ReleaseRecord} */
    const record = given ?? {
      id,
      remote,
      created: now().toISOString(),
      by: by ?? thisActor(),
      buildId,
      commit,
      dirty,
      hashedFiles,
      integrity: /** @type {Record<string, string>} */ (integrity),
    };
    writeJsonAtomically(layout.record(id), record, fence);
    // mkdtemp made it private; a release is read by servers running as other users (nginx's workers).
    fs.chmodSync(incoming, 0o755);
    // On disk before it has its name: a crash after the rename never leaves a release with empty files.
    syncTree(incoming);
    // The release becomes visible here, whole.
    fence();
    fs.renameSync(incoming, layout.release(id));
    syncDirectory(layout.dir);
  } catch (error) {
    fs.rmSync(incoming, { recursive: true, force: true });
    if (fs.existsSync(layout.release(id))) return { id, existed: true };
    throw error;
  }
  return { id, existed: false };
}

/**
 * @param {Record<string, string>} a
 * @param {Record<string, string>} b
 */
const sameIntegrity = (a, b) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([file, value]) => b[file] === value);

module.exports = { publishRelease, checkBuild, checkIntegrity, filesUnder, integrityListOf, releaseId, isHashedFile };
