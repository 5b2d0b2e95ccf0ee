import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../contract/error-codes.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

interface Operation {
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
}

/** Every route Fastify registered under the API prefix, as `METHOD /path` with OpenAPI's `{param}` syntax, read from its route tree. */
function registeredApiRoutes(server: TestApp): string[] {
  const stack: { indent: number; path: string }[] = [];
  const routes: string[] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const indent = line.search(/[^│├└─\s]/);
    if (indent < 0) continue;
    const match = /^(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(indent));
    if (!match) continue;
    const [, segment = '', methods] = match;
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1]?.path ?? '';
    // A radix tree: a child continues its parent's text as it is ("recovery" then "-codes"), slash or not.
    const url = `${parent}${segment}`;
    stack.push({ indent, path: url });
    if (!methods || !url.startsWith(`${API}/`) || url === `${API}/openapi.json`) continue;
    for (const method of methods.split(', ')) {
      if (method !== 'HEAD') routes.push(`${method} ${url.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes;
}

describe('the OpenAPI document', () => {
  let server: TestApp;
  let document: OpenApiDocument;
  beforeAll(async () => {
    server = await startTestApp();
    const response = await server.app.inject({ method: 'GET', url: `${API}/openapi.json` });
    expect(response.statusCode).toBe(200);
    document = response.json<OpenApiDocument>();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every route registered under the API prefix, and nothing outside it', () => {
    const documented = Object.entries(document.paths).flatMap(([url, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${url}`));
    const registered = registeredApiRoutes(server);
    expect(registered.length).toBeGreaterThan(15);
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
  });

  it('gives every operation its answer and the error body with every error code, and every POST its request body', () => {
    expect(document.components.schemas.apiError?.properties.error_code?.enum).toEqual(Object.keys(ERROR_CODES));
    for (const [url, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${url}`;
        expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(['200', '4XX', '5XX']));
        expect(JSON.stringify(operation.responses['4XX']), where).toContain('apiError');
        if (method === 'post') expect(operation.requestBody?.content['application/json']?.schema, where).toBeDefined();
      }
    }
  });

  it("describes the login step's body from its form, with the password as ciphertext", () => {
    const login = document.paths[`${API}/auth/login`]?.post;
    const schema = login?.requestBody?.content['application/json']?.schema as { properties: Record<string, { type: string; description?: string }>; required: string[] };
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(schema.properties.password?.description).toContain('JWE');
  });
});
