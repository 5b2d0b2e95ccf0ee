/**
 * Makes rjsf's rarely used fields and default widgets lazy chunks. @rjsf/core's default registry imports every
 * field and widget, so arrays, anyOf/oneOf, layout grids, file, date, rating or select inputs would ship with the
 * login page although no login form uses them (the app's own widgets, src/ui/widgets/registry.ts, render its
 * inputs); here the registry gets a stand-in per field or widget that fetches the real one the first time a form
 * renders it. Every schema still works; only the download moves.
 */
import type { Plugin } from 'vite';

const FIELD_REGISTRY = /@rjsf[\\/]core[\\/]lib[\\/]components[\\/]fields[\\/]index\.js$/;
// Number inputs, the fallback for a schema without a known type and the optional-data controls: no form of the app
// has them (a form that gains one fetches it when it first renders).
const LAZY_FIELDS = /^\.\/(ArrayField|FallbackField|LayoutGridField|LayoutHeaderField|LayoutMultiSchemaField|MultiSchemaField|NumberField|OptionalDataControlsField)\.js$/;
const WIDGET_REGISTRY = /@rjsf[\\/]core[\\/]lib[\\/]components[\\/]widgets[\\/]index\.js$/;
const LAZY_WIDGETS = /^\.\/[A-Za-z]+Widget\.js$/;
const PREFIX = '\0lazy-rjsf-field:';

/** The stand-in module for the field or widget at `file`: renders nothing until the real one arrives. */
function standIn(file: string): string {
  return [
    "import { createElement, lazy, Suspense } from 'react';",
    `const Field = lazy(() => import(${JSON.stringify(file)}));`,
    'export default function LazyField(props) {',
    '  return createElement(Suspense, { fallback: null }, createElement(Field, props));',
    '}',
  ].join('\n');
}

/** The Vite plugin. */
export function lazyRjsfFields(): Plugin {
  return {
    name: 'lazy-rjsf-fields',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer) return null;
      const lazyField = FIELD_REGISTRY.test(importer) && LAZY_FIELDS.test(source);
      const lazyWidget = WIDGET_REGISTRY.test(importer) && LAZY_WIDGETS.test(source);
      if (!lazyField && !lazyWidget) return null;
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real ? `${PREFIX}${real.id}` : null;
    },
    load(id) {
      return id.startsWith(PREFIX) ? standIn(id.slice(PREFIX.length)) : null;
    },
  };
}
