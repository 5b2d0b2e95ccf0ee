/**
 * Makes rjsf's rarely used fields, templates and default widgets lazy chunks. @rjsf/core's default registry imports
 * every field, template and widget, so arrays, anyOf/oneOf, cyclic references, layout grids, additional-data
 * controls, file, date, rating or select inputs would ship with the login page although no login form uses them (the
 * app's own widgets, src/ui/widgets/registry.ts, render its inputs); here the registry gets a stand-in per field,
 * template or widget that fetches the real one the first time a form renders it. Every schema still works; only the
 * download moves.
 */
import type { Plugin } from 'vite';

const FIELD_REGISTRY = /@rjsf[\\/]core[\\/]lib[\\/]components[\\/]fields[\\/]index\.js$/;
// Number inputs, the fallback for a schema without a known type, cyclic references and the optional-data controls:
// no form of the app has them (a form that gains one fetches it when it first renders).
const LAZY_FIELDS =
  /^\.\/(ArrayField|CyclicSchemaField|FallbackField|LayoutGridField|LayoutHeaderField|LayoutMultiSchemaField|MultiSchemaField|NumberField|OptionalDataControlsField)\.js$/;
const TEMPLATE_REGISTRY = /@rjsf[\\/]core[\\/]lib[\\/]components[\\/]templates[\\/]index\.js$/;
// The templates only those fields, or a field no field matches, render.
const LAZY_TEMPLATES =
  /^\.\/(ArrayFieldDescriptionTemplate|ArrayFieldItemButtonsTemplate|ArrayFieldItemTemplate|ArrayFieldTemplate|ArrayFieldTitleTemplate|CyclicSchemaExpandTemplate|FallbackFieldTemplate|GridTemplate|MultiSchemaFieldTemplate|OptionalDataControlsTemplate|UnsupportedField)\.js$/;
const BUTTON_REGISTRY = /@rjsf[\\/]core[\\/]lib[\\/]components[\\/]templates[\\/]ButtonTemplates[\\/]index\.js$/;
// Add, copy, move, remove and clear buttons: arrays', additional properties' and clearable inputs' (none in the app).
const LAZY_BUTTONS = /^\.\/AddButton\.js$/;
const ICON_BUTTONS = /^\.\/IconButton\.js$/;
/** The buttons the button registry imports by name from IconButton.js. */
const ICON_BUTTON_NAMES = ['CopyButton', 'MoveDownButton', 'MoveUpButton', 'RemoveButton', 'ClearButton'];
const WIDGET_REGISTRY = /@rjsf[\\/]core[\\/]lib[\\/]components[\\/]widgets[\\/]index\.js$/;
const LAZY_WIDGETS = /^\.\/[A-Za-z]+Widget\.js$/;
const PREFIX = '\0lazy-rjsf-field:';
const NAMED_PREFIX = '\0lazy-rjsf-named:';

/** A component `name` that renders the export `exported` of `file` once it has arrived, nothing before. */
function lazyComponent(name: string, file: string, exported: string): string {
  return [
    `const Lazy${name} = lazy(() => import(${JSON.stringify(file)}).then((module) => ({ default: module.${exported} })));`,
    `function ${name}(props) {`,
    `  return createElement(Suspense, { fallback: null }, createElement(Lazy${name}, props));`,
    '}',
  ].join('\n');
}

/** The stand-in module for the field, template or widget that is the default export of `file`. */
function standIn(file: string): string {
  return ["import { createElement, lazy, Suspense } from 'react';", lazyComponent('LazyField', file, 'default'), 'export default LazyField;'].join('\n');
}

/** The stand-in module for IconButton.js's named buttons. */
function namedStandIn(file: string): string {
  return [
    "import { createElement, lazy, Suspense } from 'react';",
    ...ICON_BUTTON_NAMES.map((name) => lazyComponent(name, file, name)),
    `export { ${ICON_BUTTON_NAMES.join(', ')} };`,
  ].join('\n');
}

/** The Vite plugin. */
export function lazyRjsfFields(): Plugin {
  return {
    name: 'lazy-rjsf-fields',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer) return null;
      const named = BUTTON_REGISTRY.test(importer) && ICON_BUTTONS.test(source);
      const lazyDefault =
        (FIELD_REGISTRY.test(importer) && LAZY_FIELDS.test(source)) ||
        (TEMPLATE_REGISTRY.test(importer) && LAZY_TEMPLATES.test(source)) ||
        (BUTTON_REGISTRY.test(importer) && LAZY_BUTTONS.test(source)) ||
        (WIDGET_REGISTRY.test(importer) && LAZY_WIDGETS.test(source));
      if (!named && !lazyDefault) return null;
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real ? `${named ? NAMED_PREFIX : PREFIX}${real.id}` : null;
    },
    load(id) {
      if (id.startsWith(NAMED_PREFIX)) return namedStandIn(id.slice(NAMED_PREFIX.length));
      return id.startsWith(PREFIX) ? standIn(id.slice(PREFIX.length)) : null;
    },
  };
}
