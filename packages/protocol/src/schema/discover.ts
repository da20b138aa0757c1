// `server/discover`: the mandatory request that tells a client what the server speaks and offers.
import type { z } from 'zod';
import { ServerCapabilitiesSchema } from './capabilities.js';
import { jsonrpcRequest, jsonrpcResultResponse } from './jsonrpc.js';
import { cacheableResult, RequestParamsSchema } from './meta.js';
import { lazySchema, zod } from './zod.js';

/**
 * `server/discover`: ask for supported versions, capabilities and instructions. Every server implements it.
 */
export const DiscoverRequestSchema = lazySchema(() => jsonrpcRequest('server/discover', RequestParamsSchema));
/** `server/discover` request. */
export type DiscoverRequest = z.infer<typeof DiscoverRequestSchema>;

/**
 * What the server speaks (`supportedVersions`) and offers (`capabilities`), plus optional natural-language
 * `instructions` for the model. Cacheable for `ttlMs`.
 */
export const DiscoverResultSchema = lazySchema(() =>
  cacheableResult.extend({
    supportedVersions: zod.array(zod.string()),
    capabilities: ServerCapabilitiesSchema,
    instructions: zod.string().optional(),
  }),
);
/** The result of `server/discover`. */
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

/** A successful response to `server/discover`. */
export const DiscoverResultResponseSchema = lazySchema(() => jsonrpcResultResponse(DiscoverResultSchema));
/** A successful response to `server/discover`. */
export type DiscoverResultResponse = z.infer<typeof DiscoverResultResponseSchema>;
