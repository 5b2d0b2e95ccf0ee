import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../../contract/product.ts';
import { ERROR_CODES } from '../../contract/error-codes.ts';
import type { CallMethod, FlowRegistry } from '../flows/flow-registry.ts';

/** Where the step API's OpenAPI document is served. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

type JsonSchema = Record<string, unknown>;

/**
 * The request body of a step call as the flows define it: the step's form (several steps or variants may share one
 * call, so several forms), with encrypted fields carried as RSA-OAEP ciphertext. A call without a form sends `{}`.
 */
function requestBody(flows: FlowRegistry, url: string, method: string): JsonSchema | undefined {
  if (method !== 'POST' || !url.startsWith(`${API_PREFIX}/`)) return undefined;
  const forms = flows.requestSchemasFor(url.slice(API_PREFIX.length + 1), method as CallMethod);
  if (forms.length === 0) return { type: 'object', description: 'No form: send an empty JSON object.' };
  return forms.length === 1 ? (forms[0] as JsonSchema) : { oneOf: forms };
}

/**
 * Registers @fastify/swagger so every route under the API prefix is documented from its own schemas, with each step
 * call's request body taken from the flows, and serves the OpenAPI 3.1 document. Register before the routes.
 */
export async function installOpenApi(app: FastifyInstance, deps: { flows: FlowRegistry; publicUrl: string }): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Single sign-on step API',
        version: '3',
        description: `The API the sign-in web app calls. Every error answers { error_code, error_message } (apiError). Error codes: ${Object.keys(ERROR_CODES).join(', ')}.`,
      },
      servers: [{ url: deps.publicUrl }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`) },
    transform: ({ schema, url, route }) => {
      if (!url.startsWith(`${API_PREFIX}/`) || url === OPENAPI_PATH) return { schema: { ...schema, hide: true }, url };
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const body = schema?.body === undefined ? requestBody(deps.flows, url, methods[0] ?? 'GET') : undefined;
      return { schema: { ...schema, ...(body ? { body } : {}) }, url };
    },
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      const apiError = (document as { components?: { schemas?: Record<string, JsonSchema> } }).components?.schemas?.apiError;
      const properties = apiError?.properties as Record<string, JsonSchema> | undefined;
      if (properties?.error_code) properties.error_code = { ...properties.error_code, enum: Object.keys(ERROR_CODES) };
      return document;
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
