// Client and server capabilities. Clients declare theirs on every request (`_meta`); servers advertise theirs
// through `server/discover`. Neither set is closed: unknown capabilities pass through.
//
// Settings objects are JSONObjects in the spec. They are checked as objects whose members pass through
// unchecked: off the wire every member is JSON already, and walking them recursively on every request's
// `_meta` cost about 40% of a `tools/call` parse and kept zod's compiler (`z.compile`) from compiling any
// request schema.
import type { z } from 'zod';
import { openObject } from './base.js';
import { lazySchema, zod } from './zod.js';

/** A capability's settings object (`{}` means "supported, no settings"); members pass through as is. */
const settings = openObject;

/** A map of capability or extension names to settings objects. */
const settingsMap = lazySchema(() => zod.record(zod.string(), settings));

/**
 * What a client supports, declared per request in `_meta["io.modelcontextprotocol/clientCapabilities"]` (`{}`
 * means nothing optional). A server never asks for a capability missing here (`-32021`).
 */
export const ClientCapabilitiesSchema = lazySchema(() =>
  zod.looseObject({
    experimental: settingsMap.optional(),
    /** Deprecated (SEP-2577): the client answers `roots/list` input requests. */
    roots: zod.looseObject({}).optional(),
    /** Deprecated (SEP-2577): the client answers `sampling/createMessage` input requests. */
    sampling: zod
      .looseObject({
        context: settings.optional(),
        tools: settings.optional(),
      })
      .optional(),
    /** The client answers `elicitation/create` input requests, in `form` and/or `url` mode. */
    elicitation: zod
      .looseObject({
        form: settings.optional(),
        url: settings.optional(),
      })
      .optional(),
    /** MCP extensions the client supports, keyed by prefixed extension id. */
    extensions: settingsMap.optional(),
  }),
);
/** What a client supports for one request. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** `{ listChanged? }`: a feature whose list may change, announced on a `subscriptions/listen` stream. */
const listChangedFeature = lazySchema(() => zod.looseObject({ listChanged: zod.boolean().optional() }));

/**
 * What a server offers, as `server/discover` reports it. A method behind a capability the server did not
 * advertise answers `-32601`.
 */
export const ServerCapabilitiesSchema = lazySchema(() =>
  zod.looseObject({
    experimental: settingsMap.optional(),
    /** Deprecated (SEP-2577): the server may send `notifications/message`. */
    logging: settings.optional(),
    completions: settings.optional(),
    prompts: listChangedFeature.optional(),
    resources: zod
      .looseObject({
        subscribe: zod.boolean().optional(),
        listChanged: zod.boolean().optional(),
      })
      .optional(),
    tools: listChangedFeature.optional(),
    /** MCP extensions the server supports, keyed by prefixed extension id. */
    extensions: settingsMap.optional(),
  }),
);
/** What a server offers. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
