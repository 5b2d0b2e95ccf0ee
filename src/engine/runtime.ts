/**
 * The app's wiring of the engine: one flow controller and one client-name lookup over the shared
 * API client, built from config. Views import these; tests build their own from the factories.
 */
import { config } from '../config.ts';
import { track } from '../services/analytics.ts';
import { apiClient } from '../services/api-client.ts';
import { createClientNameLookup } from '../services/client-info.ts';
import { createFlowController, type FlowController } from './flow-controller.ts';
import { stepRegistry } from './step-registry.ts';
import { carriedQueryNames } from './routes.ts';
import { activeFlags } from '../services/feature-flags/active-flags.ts';

/** The flow controller the views drive. */
export const flowController: FlowController = createFlowController({
  registry: stepRegistry,
  flags: activeFlags,
  errorStep: config.errorStep,
  api: apiClient,
  track,
});

/** Looks up the client name for "Signing in to {client}". */
export const lookupClientName = createClientNameLookup(apiClient, config.clientInfo);

/** Query names kept on every step navigation. */
export const carriedQuery: readonly string[] = carriedQueryNames(stepRegistry.steps.values(), [...config.carriedQuery, ...stepRegistry.entryQuery]);
