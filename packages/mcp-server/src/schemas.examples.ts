// README examples: the schemas users already have (valibot, arktype, raw JSON Schema), side by side with zod.
// #region schemas
import { elicit, McpServer, resolver, withJsonSchema } from '@boomerang/mcp-server';
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';

export const library = new McpServer({ name: 'library', version: '1.0.0' });

// valibot: its converter lives in @valibot/to-json-schema; toStandardJsonSchema gives the schema one.
const Loan = toStandardJsonSchema(v.object({ title: v.string(), weeks: v.optional(v.number(), 2) }));
library.tool('lend', { input: Loan }, ({ title, weeks }) => ({
  content: [{ type: 'text', text: `"${title}" is yours for ${weeks} weeks` }],
}));

// arktype converts itself; input and output are both checked (a wrong structuredContent is -32603).
library.tool(
  'count',
  { input: type({ shelf: 'string' }), output: type({ shelf: 'string', books: 'number.integer >= 0' }) },
  ({ shelf }) => ({ structuredContent: { shelf, books: shelf.length } }),
);

// A raw JSON Schema (2020-12 unless $schema says otherwise), validated as written; written inline, it types
// the arguments too ({ query: string; limit?: number }).
library.tool(
  'search',
  {
    input: {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', maximum: 50 } },
      required: ['query'],
    },
  },
  ({ query, limit }) => ({ content: [{ type: 'text', text: `${limit ?? 10} results for ${query}` }] }),
);

// Any Standard Schema with a converter you pick: withJsonSchema(schema, convert or JSON Schema).
const Renew = withJsonSchema(v.object({ title: v.string() }), (schema) => toJsonSchema(schema));
// Elicitation forms take the same schemas (flat objects of primitives and enums).
const sure = resolver({}, () =>
  elicit('Renew it?', { type: 'object', properties: { yes: { type: 'boolean' } }, required: ['yes'] }),
);
library.tool('renew', { input: Renew, resolve: { sure } }, ({ title }, { sure }) => ({
  content: [{ type: 'text', text: sure.yes ? `"${title}" renewed` : 'not renewed' }],
}));
// #endregion schemas
