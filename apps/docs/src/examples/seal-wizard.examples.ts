// "@boomerang/seal outside MCP": a sign-up wizard whose progress lives in a sealed cookie. No session store: the
// browser carries the state, and cannot read, change, replay for another user, or keep it past its expiry.
// Run by seal-wizard.examples.test.ts.
// #region wizard
import { createSealer, generateKey, SealError } from '@boomerang/seal';
import { z } from 'zod';

// In production: keys from the environment, shared by every instance (parseKeys(process.env.WIZARD_KEYS)).
const sealer = createSealer({ keys: [generateKey()], ttlSeconds: 15 * 60, audience: 'signup' });

const Progress = z.object({ email: z.string().optional(), plan: z.string().optional() });
type Progress = z.infer<typeof Progress>;

/** Reads the wizard's cookie; anything that does not open (tampered, expired, another user's) starts over. */
function progressOf(request: Request, visitor: string): Progress {
  const cookie = /(?:^|;\s*)wizard=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  if (cookie === undefined) return {};
  try {
    // A token proves who sealed it, not that its shape is today's: validate what comes out.
    return Progress.parse(sealer.unsealJson(cookie, { context: `wizard:${visitor}` }));
  } catch (error) {
    if (!(error instanceof SealError)) throw error;
    console.warn(`wizard state refused: ${error.reason}`); // for logs; the visitor just starts over
    return {};
  }
}

/** One step per POST (`field=value`); the answer says what to ask next and carries the new sealed state. */
export async function wizard(request: Request, visitor: string): Promise<Response> {
  const progress = { ...progressOf(request, visitor), ...Object.fromEntries(await request.formData()) };
  const next = progress.email === undefined ? 'email' : progress.plan === undefined ? 'plan' : 'done';
  const token = sealer.sealJson(progress, { context: `wizard:${visitor}` });
  return Response.json(
    { next, progress },
    { headers: { 'set-cookie': `wizard=${token}; HttpOnly; Secure; SameSite=Strict; Path=/signup` } },
  );
}
// #endregion wizard
