import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { namesClientApp } from '../../contract/client-query.ts';
import { API_PREFIX } from '../../contract/product.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { inlineStyleHashes } from './inline-styles.ts';
import { webAppCsp } from './security-headers.ts';
import type { ThirdPartyOrigins } from './third-party-origins.ts';

/** Hashed assets never change under one name, so browsers may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Where the product's own address leads: the account page, which signs in as a client of our provider. */
const ACCOUNT_PAGE = '/auth/account';

/** Whether a login address's query (contract/client-query.ts) makes it a client's sign-in. */
function namesClient(query: string): boolean {
  return namesClientApp(new URLSearchParams(query.split('#')[0]));
}

/** The first screen's address and the file holding its prerendered page (scripts/prerender.ts). */
const PRERENDERED = { path: '/auth/login', file: 'login.html' };

/**
 * Serves the built web app under /auth/: hashed assets with long-lived caching, and index.html (never cached)
 * for every client route, so a reload on /auth/mfa/totp works. The first screen gets its prerendered page,
 * which paints before the scripts run.
 */
export function webAppRoutes(
  distDir: string,
  origins: ThirdPartyOrigins = {},
  /** Where a client's link to the first screen goes straight away (into the provider), if anywhere. */
  directLink?: (query: Record<string, unknown>) => Promise<string | undefined>,
) {
  const csp = webAppCsp(origins);
  return async (app: FastifyInstance) => {
    const indexFile = path.join(distDir, 'index.html');
    const prerenderedFile = path.join(distDir, PRERENDERED.file);
    const built = fs.existsSync(indexFile);
    const hasPrerendered = fs.existsSync(prerenderedFile);
    // Read once: the build does not change under a running server.
    const prerenderedCsp = hasPrerendered ? webAppCsp(origins, inlineStyleHashes(fs.readFileSync(prerenderedFile, 'utf8'))) : csp;
    const sendIndex = (reply: FastifyReply, pathName = '', status = 200) => {
      const prerendered = hasPrerendered && pathName === PRERENDERED.path;
      if (!built) {
        return reply.code(503).type('text/plain').send('The web app is not built yet: run `npm run build` (npm start does it for you).');
      }
      return reply
        .code(status)
        .header('content-security-policy', prerendered ? prerenderedCsp : csp)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(fs.createReadStream(prerendered ? prerenderedFile : indexFile));
    };
    if (built) {
      await app.register(fastifyStatic, {
        root: distDir,
        prefix: '/auth/',
        index: false,
        wildcard: true,
        decorateReply: false,
        setHeaders: (res, filePath) => {
          const isHashed = filePath.includes(`${path.sep}assets${path.sep}`);
          res.header('cache-control', isHashed ? IMMUTABLE : 'public, max-age=3600');
        },
        allowedPath: (pathName) => pathName !== '/index.html' && pathName !== `/${PRERENDERED.file}`,
      });
    }
    // The product's own address, and a login no client app asked for, sign in to the account page (our own client).
    app.get('/', (_request, reply) => reply.redirect(ACCOUNT_PAGE));
    app.get('/auth', (request, reply) => {
      const query = request.url.slice('/auth'.length);
      return reply.redirect(namesClient(query) ? `/auth/login${query}` : ACCOUNT_PAGE);
    });
    app.get('/auth/', (_request, reply) => reply.redirect(ACCOUNT_PAGE));
    app.get('/auth/login', async (request, reply) => {
      const query = request.url.slice('/auth/login'.length);
      if (!namesClient(query)) return reply.redirect(ACCOUNT_PAGE);
      if (built && directLink) {
        // A valid client link is sent into the provider now, so the app loads once, at the interaction's screen.
        const target = await directLink(request.query as Record<string, unknown>);
        if (target) return reply.header('cache-control', 'no-store').redirect(target, 303);
      }
      return sendIndex(reply, PRERENDERED.path);
    });
    app.setNotFoundHandler((request, reply) => {
      const pathName = request.url.split('?')[0] ?? '';
      const isPage = request.method === 'GET' && pathName.startsWith('/auth/') && !pathName.startsWith('/auth/assets/');
      if (isPage) return sendIndex(reply, pathName);
      // A person's browser asking for a page that is not there gets the product's own "Page not found"; API clients
      // (and anything under the API prefix) keep the JSON error.
      const wantsPage = request.method === 'GET' && !pathName.startsWith(API_PREFIX) && /\btext\/html\b/.test(request.headers.accept ?? '');
      if (wantsPage) return sendIndex(reply, pathName, 404);
      return reply.code(404).send({ error_code: 'request.not_found', error_message: 'There is nothing at this address.' });
    });
  };
}
