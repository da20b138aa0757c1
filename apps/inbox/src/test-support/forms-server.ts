// A club's sign-up server for the browser tests: one tool whose form uses every primitive of the spec's requested
// schema (text with each format and with lengths, integer and number with bounds, booleans with and without a
// default, plain, titled and legacy-titled single choices, plain and titled multi-selects, defaults, required
// fields), and answers with exactly what it received, so a test can read back what the page sent.
import { elicit, McpServer, resolver } from '@boomerang/mcp-server';
import { elicitRequest, inputRequired } from '@boomerang/protocol';
import { type Listening, listen } from '@boomerang/transport-http/node';
import { z } from 'zod';

/** The sign-up form: every field kind. */
export const signUpForm = z.object({
  name: z.string().min(2).max(40).meta({ title: 'Full name' }).describe('As printed on your card'),
  email: z.email().meta({ title: 'Email' }),
  website: z.url().optional().meta({ title: 'Website' }),
  birthday: z.iso.date().optional().meta({ title: 'Birthday' }),
  arrival: z.iso.datetime().default('2026-07-28T09:30:00Z').meta({ title: 'Arrival' }),
  guests: z.number().int().min(0).max(4).default(1).meta({ title: 'Guests' }),
  budget: z.number().min(0).max(250.5).optional().meta({ title: 'Budget (EUR)' }),
  newsletter: z.boolean().default(false).meta({ title: 'Send me the newsletter' }),
  rules: z.boolean().meta({ title: 'I accept the club rules' }),
  room: z.enum(['single', 'double', 'suite']).meta({ title: 'Room' }),
  meal: z
    .union([
      z.literal('veg').meta({ title: 'Vegetarian' }),
      z.literal('fish').meta({ title: 'Fish' }),
      z.literal('any').meta({ title: 'Anything' }),
    ])
    .default('veg')
    .meta({ title: 'Meal' }),
  topics: z
    .array(z.enum(['sf', 'fantasy', 'crime']))
    .min(1)
    .max(2)
    .default(['sf'])
    .meta({ title: 'Topics' }),
  slots: z
    .array(
      z.union([z.literal('am').meta({ title: 'Morning' }), z.literal('pm').meta({ title: 'Afternoon' })]),
    )
    .optional()
    .meta({ title: 'Time slots' }),
});

/** The forms server, listening. */
export interface FormsServer {
  readonly url: URL;
  close(): Promise<void>;
}

/** Serves it on 127.0.0.1 (a free port). */
export async function startFormsServer(): Promise<FormsServer> {
  const mcp = new McpServer({ name: 'club', version: '1.0.0' }, { logger: { warn: () => {} } });
  const signUp = resolver({ args: ['club'] }, ({ club }: { club: string }) =>
    elicit(`Sign up for the ${club} club`, signUpForm),
  );
  mcp.tool(
    'sign_up',
    { input: z.object({ club: z.string() }), resolve: { form: signUp } },
    (_args, { form }) => ({ content: [{ type: 'text', text: `Signed up: ${JSON.stringify(form)}` }] }),
  );
  // A hand-built round with a legacy titled enum (`enumNames`), which zod does not write.
  mcp.tool('pick_fruit', { input: z.object({}) }, (_args, _resolved, ctx) => {
    const answer = ctx.inputResponses?.fruit as { action?: string; content?: { fruit?: string } } | undefined;
    if (answer?.action === 'accept' && typeof answer.content?.fruit === 'string') {
      return { content: [{ type: 'text', text: `Fruit: ${answer.content.fruit}` }] };
    }
    return inputRequired({
      inputRequests: {
        fruit: elicitRequest({
          message: 'Pick a fruit',
          requestedSchema: {
            type: 'object',
            properties: {
              fruit: { type: 'string', title: 'Fruit', enum: ['a', 'b'], enumNames: ['Apple', 'Banana'] },
            },
            required: ['fruit'],
          } as never,
        }),
      },
      requestState: 'asked',
    });
  });
  const endpoint: Listening = await listen(mcp, { port: 0, host: '127.0.0.1' });
  return {
    url: endpoint.url,
    close: async () => {
      await endpoint.close();
      await mcp.close();
    },
  };
}
