/**
 * Form schemas and their precompiled validators, by schema file name. Schemas come from
 * schemas/forms/, validators from src/generated/ (written by scripts/build-validators.ts),
 * so no schema is compiled in the browser.
 */
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';

/** A form's schema and the validator compiled from it. */
export interface FormAssets {
  schema: RJSFSchema;
  validator: ValidatorType;
}

const schemas = import.meta.glob<RJSFSchema>('../../schemas/forms/*.schema.json', { eager: true, import: 'default' });
const validators = import.meta.glob<ValidatorFunctions>('../generated/*.validators.js', { eager: true, import: 'default' });
const cache = new Map<string, FormAssets>();

/** The schema and validator for a flow form's `schema` file; throws when either is missing. */
export function formAssets(schemaFile: string): FormAssets {
  const hit = cache.get(schemaFile);
  if (hit) return hit;
  const schema = schemas[`../../schemas/forms/${schemaFile}`];
  if (!schema) throw new Error(`No form schema schemas/forms/${schemaFile}`);
  const functions = validators[`../generated/${schemaFile.replace(/\.schema\.json$/, '')}.validators.js`];
  if (!functions) throw new Error(`No precompiled validator for ${schemaFile}: run npm run build`);
  const assets = { schema, validator: createPrecompiledValidator(functions, schema) };
  cache.set(schemaFile, assets);
  return assets;
}
