/**
 * Loaded with `node --import` in front of the server: any import the project's own code makes of a package that is
 * not in package.json's `dependencies` (a devDependency such as tsx or vite, absent after `npm ci --omit=dev`)
 * fails the process, as it would in production.
 */
import fs from 'node:fs';
import { builtinModules, registerHooks } from 'node:module';

const manifest = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const root = new URL('../../../', import.meta.url).href;

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromProject = context.parentURL?.startsWith(root) && !context.parentURL.includes('/node_modules/');
    const bare = !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.includes(':') && !builtinModules.includes(specifier);
    if (fromProject && bare && !Object.hasOwn(manifest.dependencies, packageName(specifier))) {
      throw new Error(`production import of a devDependency: ${specifier} from ${context.parentURL}`);
    }
    return nextResolve(specifier, context);
  },
});
