/**
 * Form schemas and their precompiled validators, by schema file name. Schemas come from
 * schemas/forms/, validators from src/generated/ (written by scripts/build-validators.ts),
 * so no schema is compiled in the browser. Only the first screen's schema and validator ship with
 * the page (the login screen is prerendered and hydrated, so its form must render at once); every
 * other form's schema and validator are chunks of their own, fetched when its step first shows.
 */
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { useEffect, useState } from 'react';

/** A form's schema and the validator compiled from it. */
export interface FormAssets {
  schema: RJSFSchema;
  validator: ValidatorType;
}

const firstScreenSchemas = import.meta.glob<RJSFSchema>('../../schemas/forms/login.schema.json', { eager: true, import: 'default' });
const laterSchemas = import.meta.glob<RJSFSchema>(['../../schemas/forms/*.schema.json', '!../../schemas/forms/login.schema.json'], { import: 'default' });
const firstScreenValidators = import.meta.glob<ValidatorFunctions>('../generated/login.validators.js', { eager: true, import: 'default' });
const laterValidators = import.meta.glob<ValidatorFunctions>(['../generated/*.validators.js', '!../generated/login.validators.js'], { import: 'default' });
const cache = new Map<string, FormAssets>();

const validatorPath = (schemaFile: string) => `../generated/${schemaFile.replace(/\.schema\.json$/, '')}.validators.js`;
const schemaPath = (schemaFile: string) => `../../schemas/forms/${schemaFile}`;

/** A flow form's JSON Schema by file name, fetching its chunk if needed; rejects when it is missing. */
export async function loadFormSchema(schemaFile: string): Promise<RJSFSchema> {
  const schema = firstScreenSchemas[schemaPath(schemaFile)] ?? (await laterSchemas[schemaPath(schemaFile)]?.());
  if (!schema) throw new Error(`No form schema schemas/forms/${schemaFile}`);
  return schema;
}

function remember(schemaFile: string, schema: RJSFSchema, functions: ValidatorFunctions): FormAssets {
  const assets = { schema, validator: createPrecompiledValidator(functions, schema) };
  cache.set(schemaFile, assets);
  return assets;
}

/** The schema and validator for a flow form's `schema` file if they are at hand without a download. */
function readyFormAssets(schemaFile: string): FormAssets | undefined {
  const hit = cache.get(schemaFile);
  if (hit) return hit;
  const functions = firstScreenValidators[validatorPath(schemaFile)];
  const schema = firstScreenSchemas[schemaPath(schemaFile)];
  return functions && schema ? remember(schemaFile, schema, functions) : undefined;
}

/** The schema and validator for a flow form's `schema` file, fetching the validator's chunk if needed; rejects when either is missing. */
export async function loadFormAssets(schemaFile: string): Promise<FormAssets> {
  const ready = readyFormAssets(schemaFile);
  if (ready) return ready;
  const load = laterValidators[validatorPath(schemaFile)];
  if (!load) throw new Error(`No precompiled validator for ${schemaFile}: run npm run build`);
  const [schema, functions] = await Promise.all([loadFormSchema(schemaFile), load()]);
  return remember(schemaFile, schema, functions);
}

/** A form's assets for rendering: undefined while its validator's chunk loads; a failed load is thrown to the error boundary. */
export function useFormAssets(schemaFile: string): FormAssets | undefined {
  const [loaded, setLoaded] = useState<{ file: string; assets: FormAssets } | undefined>();
  const [failure, setFailure] = useState<Error | undefined>();
  const ready = readyFormAssets(schemaFile) ?? (loaded?.file === schemaFile ? loaded.assets : undefined);
  useEffect(() => {
    if (ready) return;
    let current = true;
    loadFormAssets(schemaFile).then(
      (assets) => current && setLoaded({ file: schemaFile, assets }),
      (error: unknown) => current && setFailure(error instanceof Error ? error : new Error(String(error))),
    );
    return () => {
      current = false;
    };
  }, [schemaFile, ready]);
  if (failure) throw failure;
  return ready;
}
