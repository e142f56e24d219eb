// The test host's strategy registry, as score-api's src/strategies/strategies/index.ts builds it:
// every folder beside this file with an index is required, then given its examples, schema,
// README and manifest. score-api logs a folder that fails to load and goes on without it; the
// host does the same and also keeps the error in `loadErrors`, so a test names it.
import { existsSync, readdirSync, readFileSync } from 'fs';
import path from 'path';

const strategies: Record<string, any> = {};

export const loadErrors: Record<string, unknown> = {};

function readJson(file: string): any {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const folders = readdirSync(__dirname, { withFileTypes: true })
  .filter(entry => entry.isDirectory())
  .map(entry => entry.name);

for (const name of folders) {
  const index = path.join(__dirname, name, 'index');
  if (!existsSync(`${index}.ts`) && !existsSync(`${index}.js`)) continue;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    strategies[name] = require(`./${name}`);
  } catch (error) {
    loadErrors[name] = error;
    console.warn(`Failed to load strategy ${name}:`, error);
  }
}

for (const name of Object.keys(strategies)) {
  const dir = path.join(__dirname, name);
  const strategy = strategies[name];
  strategy.examples = readJson(path.join(dir, 'examples.json'));
  strategy.schema = readJson(path.join(dir, 'schema.json'));
  strategy.about = existsSync(path.join(dir, 'README.md'))
    ? readFileSync(path.join(dir, 'README.md'), 'utf8')
    : '';
  strategy.supportedProtocols ||= ['evm'];
  const manifest = readJson(path.join(dir, 'manifest.json'));
  if (manifest) {
    if (manifest.name) strategy.name = manifest.name;
    if (manifest.author) strategy.author = manifest.author;
    if (manifest.version) strategy.version = manifest.version;
    if (manifest.overriding)
      strategy.dependOnOtherAddress = manifest.overriding;
  }
}

export default strategies;
