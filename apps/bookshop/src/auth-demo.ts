// The `--auth` demo: the bookshop as an OAuth-protected resource server, a local authorization server, and a
// client that signs in through the loopback browser flow, then orders a book; sealed state is bound to the user.
import {
  bearerAuth,
  type ProtectedResourceEndpoint,
  protectedResourceMetadata,
  withOAuth,
} from '@boomerang/auth';
import { loopbackRedirect, openBrowser } from '@boomerang/auth/node';
import { Client, type InputCallbacks } from '@boomerang/client';
import { createRoundPrinter, tapTransport } from '@boomerang/demo-kit';
import {
  type AuthInfo,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  MetaKey,
} from '@boomerang/protocol';
import { StreamableHttpClientTransport } from '@boomerang/transport-http';
import { listen } from '@boomerang/transport-http/node';
import { startAuthServer } from './auth-server.js';
import { createBookshopServer } from './bookshop.js';

/** The scope the bookshop asks for. */
export const ORDER_SCOPE = 'books:order';

/** Options of {@link runAuthDemo}. */
export interface AuthDemoOptions {
  /** The client's input callbacks (scripted or terminal forms). */
  readonly callbacks: InputCallbacks;
  /**
   * Sign in through a real browser: print the authorization URL, open it with `openBrowser`, and show a consent
   * page there. Default false: a scripted "browser" (a `fetch` that follows the redirects) approves at once.
   */
  readonly interactive?: boolean | undefined;
  /** The port of the bookshop server (default 0: a free one). */
  readonly port?: number | undefined;
  /** The book to order (default `Dune`). */
  readonly title?: string | undefined;
  /** Also print every JSON-RPC message in full. */
  readonly wire?: boolean | undefined;
}

/** What the auth demo came to. */
export interface AuthDemoOutcome {
  /** The principal the bookshop verified for the signed-in client. */
  readonly principal: AuthInfo | undefined;
  /** The order's final result. */
  readonly result: CallToolResult;
  /** The answer to the order's last round replayed with another user's token (a JSON-RPC error). */
  readonly replay: { readonly code: number; readonly message: string } | undefined;
  /** The same replay with a fresh token for the signed-in user. */
  readonly replayByOwner: 'accepted' | { readonly code: number; readonly message: string } | undefined;
}

const PRM_PATH = '/.well-known/oauth-protected-resource/mcp';

/**
 * Runs the sign-in demo: starts an authorization server and the bookshop (behind `bearerAuth`, with its
 * Protected Resource Metadata served by `listen`'s `routes`) on 127.0.0.1, signs in with `withOAuth` and
 * `loopbackRedirect`, orders a book, then replays the order's last round under another user's token to show the
 * sealed state refusing it. Stops everything it started, also on failure.
 */
export async function runAuthDemo(
  options: AuthDemoOptions,
  out: (line: string) => void,
): Promise<AuthDemoOutcome> {
  const interactive = options.interactive === true;
  const title = options.title ?? 'Dune';
  await using as = await startAuthServer({ autoApprove: !interactive, scopes: [ORDER_SCOPE] });

  // The resource URL (and so the metadata and the verifier) needs the bound port: filled in once listening.
  const gate: {
    authenticate?: (request: Request) => Promise<AuthInfo | Response>;
    metadata?: ProtectedResourceEndpoint;
  } = {};
  const unavailable = () => new Response('Starting', { status: 503 });
  const principals = new Map<string, AuthInfo>();
  await using endpoint = await listen(
    createBookshopServer({
      logger: { warn: (m) => out(`  [server] ${m}`), error: (m) => out(`  [server] ${m}`) },
      // Every answer rides a state sealed to the signed-in user, the first included: the replay below shows it.
      answerBinding: 'round',
    }),
    {
      host: '127.0.0.1',
      port: options.port ?? 0,
      authenticate: async (request) => {
        const outcome = (await gate.authenticate?.(request)) ?? unavailable();
        if (!(outcome instanceof Response)) {
          const key = `${outcome.issuer} ${outcome.clientId} ${outcome.subject}`;
          if (!principals.has(key)) {
            principals.set(key, outcome);
            out(
              `  [server] bearer token verified: subject ${outcome.subject}, client ${outcome.clientId}, scopes ${outcome.scopes?.join(' ')}`,
            );
          }
        }
        return outcome;
      },
      routes: { [PRM_PATH]: (request) => gate.metadata?.handler(request) ?? unavailable() },
    },
  );
  const resource = endpoint.url.href;
  gate.metadata = protectedResourceMetadata({
    resource,
    authorization_servers: [as.issuer],
    scopes_supported: [ORDER_SCOPE],
    resource_name: 'Bookshop',
  });
  gate.authenticate = bearerAuth({
    verify: (token) => as.verify(token, resource),
    resourceMetadata: gate.metadata.url,
    requiredScopes: [ORDER_SCOPE],
  });

  await using loopback = await loopbackRedirect({
    timeoutMs: interactive ? 300_000 : 10_000,
    open: interactive
      ? (url) => {
          out('  Open this URL in a browser to sign in (opening it for you, if there is one):');
          out(`    ${url.href}`);
          openBrowser(url);
        }
      : async (url) => {
          // The scripted "browser": GET the authorization URL and follow the redirect to the loopback listener.
          out(
            `  [browser] GET ${url.origin}${url.pathname} (client_id, PKCE S256 challenge, state, resource, scope)`,
          );
          const page = await fetch(url);
          await page.body?.cancel();
          out(
            `  [browser] consent auto-approved; redirected to ${page.url.replace(/\?.*$/, '')}: HTTP ${page.status}`,
          );
        },
  });

  out(`Boomerang bookshop demo, signed in: an OAuth-protected McpServer at ${resource} (in process).`);
  out(`Authorization server: ${as.issuer} (local, in process); metadata: ${gate.metadata.url}`);
  out(`Sign-in redirect: ${loopback.redirectUri} (loopbackRedirect from @boomerang/auth/node)`);
  out('');
  out('== sign in: the first request gets 401; withOAuth discovers, registers, authorizes, and retries');
  out('→ server/discover (before connecting: the sign-in may take the user a while)');
  // The authorization server's side of the sign-in, as the client's fetch sees it (URLs and statuses only).
  const traced: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin === as.issuer) {
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      out(`  [oauth] ${method} ${url.pathname} → HTTP ${response.status}`);
    }
    return response;
  };
  const fetchWithOAuth = withOAuth(traced, {
    redirectUri: loopback.redirectUri,
    authorize: loopback.authorize,
    clientName: 'Bookshop demo',
    onEvent: (message) => out(`  [oauth] ${message}`),
  });

  // Sign in before connecting: the first POST (a server/discover of our own) gets the 401 and runs the browser
  // flow, however long the user takes; Client.connect and every call after it then carry the token.
  const discovered = await sendOnce(endpoint.url, discoverRequest(), { fetch: fetchWithOAuth });
  if ('error' in discovered)
    throw new Error(`sign-in failed: ${discovered.error.code} ${discovered.error.message}`);
  const [principal] = principals.values();
  out(
    `← ok: signed in as ${principal?.subject} (client ${principal?.clientId}, issuer ${principal?.issuer})`,
  );
  out('');
  out('== connect and list the tools: every request now carries the bearer token');

  const print = createRoundPrinter();
  let lastRetry: JSONRPCMessage | undefined;
  const client = new Client({ name: 'bookshop-auth-demo', version: '1.0.0' }, options.callbacks);
  try {
    await client.connect(
      tapTransport(
        new StreamableHttpClientTransport(endpoint.url, { fetch: fetchWithOAuth }),
        (direction, message) => {
          if (direction === 'out' && isRetry(message)) lastRetry = message;
          for (const line of print(direction, message)) out(line);
          if (options.wire) out(`    ${direction === 'out' ? '>>' : '<<'} ${JSON.stringify(message)}`);
        },
      ),
    );
    await client.listTools();

    out('');
    out(
      `== order_book ${JSON.stringify({ title })}: as the signed-in user; the sealed state is bound to that user`,
    );
    const result = await client.callTool('order_book', { title });
    out(`=> ${result.isError === true ? 'isError: ' : ''}${textOf(result)}`);

    let replay: AuthDemoOutcome['replay'];
    let replayByOwner: AuthDemoOutcome['replayByOwner'];
    if (lastRetry !== undefined && principal?.clientId !== undefined && principal.subject !== undefined) {
      const retry = lastRetry;
      const replayAs = async (subject: string) => {
        const clientId = principal.clientId as string;
        const token = as.issueToken({ subject, clientId, resource, scopes: [ORDER_SCOPE] });
        const headers = { authorization: `Bearer ${token}` };
        return sendOnce(endpoint.url, { ...retry, id: `replay-${subject}` } as JSONRPCRequest, { headers });
      };
      out('');
      out("== replay: the order's last round (answers + sealed state), byte for byte, under another token");
      const other = principal.subject === 'bob' ? 'carol' : 'bob';
      const refused = await replayAs(other);
      if ('error' in refused) {
        replay = refused.error;
        out(`=> as ${other} (same OAuth client): refused, ${refused.error.code} ${refused.error.message}`);
      } else {
        out(
          `=> as ${other} (same OAuth client): accepted (unexpected: the state is bound to ${principal.subject})`,
        );
      }
      const owner = await replayAs(principal.subject);
      replayByOwner = 'error' in owner ? owner.error : 'accepted';
      out(
        `=> as ${principal.subject} again (a fresh token): ${'error' in owner ? `refused, ${owner.error.code} ${owner.error.message}` : 'accepted'}: the state is bound to the user, not to a token`,
      );
    }
    return { principal, result, replay, replayByOwner };
  } finally {
    await client.close();
  }
}

function isRetry(message: JSONRPCMessage): boolean {
  if (!('method' in message) || message.method !== 'tools/call') return false;
  const params = message.params as { requestState?: unknown } | undefined;
  return params?.requestState !== undefined;
}

/** A `server/discover` request, as `Client.connect` sends it. */
function discoverRequest(): JSONRPCRequest {
  return {
    jsonrpc: '2.0',
    id: 'sign-in',
    method: 'server/discover',
    params: {
      _meta: {
        [MetaKey.protocolVersion]: LATEST_PROTOCOL_VERSION,
        [MetaKey.clientCapabilities]: {},
        [MetaKey.clientInfo]: { name: 'bookshop-auth-demo', version: '1.0.0' },
      },
    },
  };
}

/** POSTs one request and resolves to its response (or the error the transport made of a failure). */
async function sendOnce(
  url: URL,
  message: JSONRPCRequest,
  options: ConstructorParameters<typeof StreamableHttpClientTransport>[1],
): Promise<{ result: unknown } | { error: { code: number; message: string } }> {
  await using transport = new StreamableHttpClientTransport(url, options);
  const response = await transport.request(message);
  return 'error' in response
    ? { error: response.error as { code: number; message: string } }
    : { result: response.result };
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
}
