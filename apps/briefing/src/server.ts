import { elicit, McpServer, type PromptResult, type Resolver, resolver } from '@boomerang/mcp-server';
import { ErrorCode, elicitRequest, inputRequired, McpError } from '@boomerang/protocol';
import { ElicitResultSchema } from '@boomerang/protocol/schemas';
import { z } from 'zod';

/** The question both prompts ask, as a zod form (the resolver form) and as the message text. */
export const AUDIENCE_QUESTION = 'Who is the briefing for?';

/** The form of the question: one required text field, `audience`. */
export const audienceForm = z.object({
  audience: z.string().min(1).describe('A person, a team or a role, e.g. "the board"'),
});

/**
 * Asks who the briefing is for. A resolver with no arguments: its value is the accepted form, typed
 * `{ audience: string }`; a declined or cancelled form fails `prompts/get` with `-32602` (prompts have no
 * `isError` result).
 */
export const askAudience: Resolver<{ audience: string }> = resolver({}, () =>
  elicit(AUDIENCE_QUESTION, audienceForm),
);

/** The briefing text the prompt hands to the model. */
export function briefingMessages(audience: string, topic: string | undefined): PromptResult {
  const about = topic === undefined || topic === '' ? '' : ` about ${topic}`;
  return {
    description: `A briefing for ${audience}`,
    messages: [
      { role: 'user', content: { type: 'text', text: `Write a briefing${about} for ${audience}.` } },
    ],
  };
}

/** What the prompts take: an optional topic (prompt arguments are strings on the wire). */
const briefingInput = z.object({
  topic: z.string().optional().describe('What the briefing is about (optional)'),
});

/**
 * The seed's second example as an `McpServer`, request state sealed by default:
 *
 * - `briefing`: the audience comes from a resolver (`askAudience`); the SDK returns the `InputRequiredResult`,
 *   validates the answer and records it in the sealed state.
 * - `briefing_by_hand`: the seed's literal form: the prompt returns the `InputRequiredResult` itself and reads
 *   `ctx.inputResponses` on the retry (the answers are client input, so they are validated here).
 */
export function createBriefingServer(): McpServer {
  const mcp = new McpServer(
    { name: 'Briefing', version: '1.0.0' },
    { instructions: 'Drafts briefings tuned to their audience; asks who the audience is.' },
  );

  mcp.prompt(
    'briefing',
    {
      title: 'Briefing',
      description: 'Draft a briefing tuned to its audience (asks who it is for).',
      input: briefingInput,
      resolve: { who: askAudience },
    },
    ({ topic }, { who }) => briefingMessages(who.audience, topic),
  );

  mcp.prompt(
    'briefing_by_hand',
    {
      title: 'Briefing (hand-built rounds)',
      description: 'The same prompt, returning its InputRequiredResult by hand as in the seed.',
      input: briefingInput,
    },
    ({ topic }, _resolved, ctx) => {
      const answer = ElicitResultSchema.safeParse(ctx.inputResponses?.audience);
      if (answer.success && answer.data.action !== 'accept') {
        // Asking again would loop until the client's round cap: a refusal ends the request instead.
        throw new McpError(
          ErrorCode.InvalidParams,
          `The briefing needs an audience: the question was ${answer.data.action === 'decline' ? 'declined' : 'cancelled'}`,
        );
      }
      const content = answer.success ? answer.data.content : undefined;
      const audience = content?.audience;
      if (typeof audience === 'string' && audience.trim() !== '') return briefingMessages(audience, topic);
      return inputRequired({
        inputRequests: {
          audience: elicitRequest({
            message: AUDIENCE_QUESTION,
            requestedSchema: {
              type: 'object',
              properties: { audience: { type: 'string', minLength: 1 } },
              required: ['audience'],
            },
          }),
        },
      });
    },
  );

  return mcp;
}
