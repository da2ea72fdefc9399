#!/usr/bin/env node
// The structure rules of docs/architecture.md, checked from the code's own imports:
//   1. No folder loops: API modules (apps/api/src/modules/<name>) and web folders (apps/web/src/features/<name>,
//      components, lib, layout, pages) import each other one way only.
//   2. The module rule (API): a module reads and writes only its own tables. Outside its own schema.ts (where a
//      foreign key may name another module's table), no file imports another module's schema.ts, and no module
//      imports another module's routes.ts (only modules/index.ts wires routes).
//   3. The feature rule (web): a feature (apps/web/src/features/<name>) is reached from outside only through
//      its index.ts, what it offers the others; its other files are its internals. The app's wiring
//      (src/main.tsx, router.tsx, pages.tsx: the lazy pages) is above every feature and exempt, and so is a
//      lazy `import()` (a page or panel loaded as a chunk of its own).
//   4. One client (web): only apps/web/src/lib calls the API by hand (`apiFetch`, `fetch`); features call the
//      endpoints declared in core through lib/client.ts (docs/architecture.md, "One contract").
//   3. User types only through can() and named constants (core's routes.ts sets, `UserType`): no user-type id
//      written as a number beside a user type in the apps (`userTypeId === 10`, `eq(users.userTypeId, 1)`).
//   4. Dates through core's time module: no `Intl.DateTimeFormat`, `toLocaleDateString`/`toLocaleTimeString` or
//      `timeZone: '...'` literal in the apps (core's time.ts formats on the shop's zone).
//   5. Links from the server's own address (issue 31 item 2): API code never reads the request's Host, Origin,
//      Referer or X-Forwarded-* headers, nor `request.hostname`/`host`/`protocol`; a link the server sends or
//      registers is built from config.publicUrl (PUBLIC_URL). `request.ip` (TRUST_PROXY) is allowed.
// Test files are left out: a test may reach into anything to set up or check.
// Prints every violation and exits 1 if there is any; `--graph` also prints each folder's dependencies.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const showGraph = process.argv.includes('--graph');

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const TEST = /\.(test|spec)\.(ts|tsx)$|\/test\//;
const IMPORT =
  /(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (SOURCE.test(name) && !TEST.test(path.split(sep).join('/'))) out.push(path);
  }
  return out;
}

/**
 * Relative imports of a file, resolved to absolute paths (extension as written or guessed). With
 * `staticOnly`, a lazy `import()` is left out: it loads a page or a panel as a chunk of its own.
 */
function importsOf(file, staticOnly = false) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  const out = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = staticOnly ? (m[1] ?? m[3]) : (m[1] ?? m[2] ?? m[3]);
    if (spec?.startsWith('.')) out.push(resolve(dirname(file), spec));
  }
  return out;
}

/** Strongly connected components with more than one folder (Tarjan): each one is a loop. */
function loops(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, on: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).on) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).on = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found;
}

const problems = [];

/** Folder-level graph of a set of files; `folderOf` names a file's folder (or null when outside the set). */
function checkLoops(label, files, folderOf) {
  const graph = new Map();
  const why = new Map();
  for (const file of files) {
    const from = folderOf(file);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    for (const target of importsOf(file)) {
      const to = folderOf(target);
      if (!to || to === from) continue;
      graph.get(from).add(to);
      const key = `${from} -> ${to}`;
      if (!why.has(key)) why.set(key, `${relative(root, file)} imports ${relative(root, target)}`);
    }
  }
  for (const component of loops(graph)) {
    const inside = new Set(component);
    const edges = [...why.entries()]
      .filter(([key]) => {
        const [a, b] = key.split(' -> ');
        return inside.has(a) && inside.has(b);
      })
      .map(([key, file]) => `    ${key}: ${file}`);
    problems.push(
      `${label}: folders import each other in a loop: ${component.join(', ')}\n${edges.join('\n')}`,
    );
  }
  if (showGraph) {
    console.log(`\n${label}:`);
    for (const [from, to] of [...graph.entries()].sort())
      console.log(`  ${from} -> ${[...to].sort().join(', ')}`);
  }
}

// API modules
const modulesDir = join(root, 'apps/api/src/modules');
const apiFiles = filesUnder(modulesDir);
const moduleOf = (file) => {
  const rel = relative(modulesDir, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0] : null;
};
checkLoops('API modules', apiFiles, moduleOf);
for (const file of apiFiles) {
  const own = moduleOf(file);
  if (!own) continue;
  const isSchema = file.endsWith(`${sep}schema.ts`);
  for (const target of importsOf(file)) {
    const other = moduleOf(target);
    if (!other || other === own) continue;
    const name = target.split(sep).pop().replace(/\.ts$/, '');
    if (name === 'schema' && !isSchema) {
      problems.push(
        `module rule: ${relative(root, file)} reads module "${other}"'s tables (${relative(root, target)}); call its service instead`,
      );
    }
    if (name === 'routes') {
      problems.push(
        `module rule: ${relative(root, file)} imports module "${other}"'s routes (only modules/index.ts wires routes)`,
      );
    }
  }
}

// Web folders
const webSrc = join(root, 'apps/web/src');
const webFiles = filesUnder(webSrc);
const webFolderOf = (file) => {
  const rel = relative(webSrc, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  if (parts.length === 1) return null; // main.tsx, router.tsx, pages.tsx: the app's wiring, above everything
  if (parts[0] === 'features') return parts.length > 2 ? `features/${parts[1]}` : null;
  return parts[0];
};
checkLoops('web folders', webFiles, webFolderOf);
const featureOf = (file) => {
  const parts = relative(webSrc, file).split(sep);
  return parts[0] === 'features' && parts.length > 2 ? parts[1] : null;
};
for (const file of webFiles) {
  if (relative(webSrc, file).split(sep).length === 1) continue; // the app's wiring
  const own = featureOf(file);
  for (const target of importsOf(file, true)) {
    const other = featureOf(target);
    if (!other || other === own || /[\\/]index\.tsx?$/.test(target)) continue;
    problems.push(
      `feature rule: ${relative(root, file)} reaches into feature "${other}"'s internals (${relative(root, target)}); import what it offers from features/${other}/index.ts`,
    );
  }
}

// User types by name (docs/architecture.md, Roles); dates through the time module (The shop's clock)
const OWN_DATE_FORMAT = /Intl\.DateTimeFormat|toLocale(?:Date|Time)String|\btimeZone:\s*['"`]/;
const USER_TYPE_NUMBER =
  /\b(?:userTypeId|userType\??\.id)\s*(?:===|!==|==|!=)\s*\d|\d\s*(?:===|!==|==|!=)\s*[\w?.]*(?:userTypeId|userType\??\.id)\b|\buserTypeId\s*,\s*\d+\s*\)/;
for (const file of [...filesUnder(join(root, 'apps/api/src')), ...webFiles]) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (USER_TYPE_NUMBER.test(line)) {
      problems.push(
        `user types: ${relative(root, file)}:${i + 1} compares a user type with a number; use can(userTypeId, SET) or UserType.X`,
      );
    }
    if (OWN_DATE_FORMAT.test(line)) {
      problems.push(
        `time: ${relative(root, file)}:${i + 1} formats a date or names a zone itself; use core's time module (formatInZone, dateIn) or lib/format.ts`,
      );
    }
  });
}

const CLIENT_ADDRESS =
  /\b(?:request|req)\.(?:hostname|host|protocol)\b|headers(?:\.|\[\s*['"`])(?:host|origin|referer|x-forwarded-[a-z]+)\b/i;
for (const file of filesUnder(join(root, 'apps/api/src'))) {
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!/^\s*(?:\/\/|\*)/.test(line) && CLIENT_ADDRESS.test(line)) {
      problems.push(
        `own address: ${relative(root, file)}:${i + 1} reads the request's host, origin, referer or forwarded headers; build links from config.publicUrl (PUBLIC_URL)`,
      );
    }
  });
}

const HAND_CALL = /\bapiFetch\s*[<(]|(?<![.\w])fetch\s*\(/;
for (const file of webFiles) {
  if (relative(webSrc, file).split(sep)[0] === 'lib') continue;
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  if (HAND_CALL.test(text)) {
    problems.push(
      `one client: ${relative(root, file)} calls the API by hand (apiFetch or fetch); call its declared endpoint through lib/client.ts`,
    );
  }
}

if (problems.length > 0) {
  console.error(`Structure check failed (docs/architecture.md):\n\n${problems.join('\n\n')}`);
  process.exit(1);
}
console.log(
  `Structure check: ${apiFiles.length} API module files and ${webFiles.length} web files, no loops, module, feature and client rules kept.`,
);
