// The test host's validation registry, as score-api's src/strategies/validations/index.ts builds
// it: every folder with an index is required and its default export (the class) kept with its
// examples, schema and README; a folder that fails to load is logged and kept in `loadErrors`.
import { existsSync, readdirSync, readFileSync } from 'fs';
import path from 'path';

const validations: Record<string, any> = {};

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
    const module = require(`./${name}`);
    const dir = path.join(__dirname, name);
    validations[name] = {
      validation: module.default || module,
      examples: readJson(path.join(dir, 'examples.json')),
      schema: readJson(path.join(dir, 'schema.json')),
      about: existsSync(path.join(dir, 'README.md'))
        ? readFileSync(path.join(dir, 'README.md'), 'utf8')
        : ''
    };
  } catch (error) {
    loadErrors[name] = error;
    console.warn(`Failed to load validation ${name}:`, error);
  }
}

export default validations;
