// One exchange on its way through the endpoint: who sent it and the message it carries, each worked out once,
// by whichever step asks first (the endpoint's era seam, an older era, the 2026-07-28 pipeline); and the shape
// of an older era, plugged in at that seam.
import { type AuthInfo, ErrorCode, type JSONRPCMessage } from '@boomerang/protocol';
import { type JSONRPCMessageKind, parseMessage } from '@boomerang/protocol/transport';
import type { BodyResult } from './body.js';
import type { Exchange } from './exchange.js';
import { acceptsBoth, isJsonContentType } from './negotiation.js';
import { json, type Reply, refuse } from './replies.js';

/**
 * Authenticates a request from its URL, method and headers: its principal, `undefined` for anonymous, or a
 * `Response` that refuses it (see `HttpHandlerOptions.authenticate`).
 */
export type Authenticate = (
  request: Request,
) => AuthInfo | Response | undefined | Promise<AuthInfo | Response | undefined>;

/** @internal What every exchange of one endpoint is admitted with. */
export interface Admission {
  readonly authenticate: Authenticate | undefined;
  /** Largest accepted body in bytes. */
  readonly maxBody: number;
  readonly onError: (error: unknown) => void;
}

/** @internal The principal of an exchange, or the answer that refuses it. */
export type Authenticated =
  | { readonly ok: true; readonly auth: AuthInfo | undefined }
  | { readonly ok: false; readonly reply: Reply };

/** @internal The principal and the JSON-RPC message of a POST, or the answer that refuses it. */
export type Received =
  | {
      readonly ok: true;
      readonly auth: AuthInfo | undefined;
      readonly message: JSONRPCMessage;
      readonly kind: JSONRPCMessageKind;
    }
  | { readonly ok: false; readonly reply: Reply };

/** The principal of every exchange of an endpoint without `authenticate` (read at once, without an await). */
const NOBODY: Authenticated = { ok: true, auth: undefined };
const ANONYMOUS: Promise<Authenticated> = Promise.resolve(NOBODY);

/**
 * @internal One exchange inside the endpoint, past the Host/Origin check. {@link authenticate} and
 * {@link receive} run their step once and hand every later caller the same outcome, so a step that looks at
 * the principal or the message before passing the exchange on costs the pipeline nothing.
 */
export class Inbound {
  readonly exchange: Exchange;
  readonly #admission: Admission;
  #authenticated: Promise<Authenticated> | undefined;
  #received: Promise<Received> | undefined;
  #settled: Received | undefined;

  constructor(exchange: Exchange, admission: Admission) {
    this.exchange = exchange;
    this.#admission = admission;
  }

  /**
   * Runs `authenticate` on the request: its principal (`undefined` for anonymous), or the `Response` it returned
   * as is, or 500 `-32603` when it threw (reported to `onError`).
   */
  authenticate(): Promise<Authenticated> {
    this.#authenticated ??=
      this.#admission.authenticate === undefined
        ? ANONYMOUS
        : this.#runAuthenticate(this.#admission.authenticate);
    return this.#authenticated;
  }

  /**
   * {@link authenticate}, then reads the POSTed message, refusing with 415 unless `Content-Type` is
   * `application/json`, 406 unless `Accept` allows both `application/json` and `text/event-stream`, 400 for a
   * body that cannot be read, 413 over the size limit, and 400 with `parseMessage`'s `-32700` / `-32600`.
   */
  receive(): Promise<Received> {
    this.#received ??= this.#receive();
    return this.#received;
  }

  /**
   * What {@link receive} resolved to, once it has (`undefined` before): a step that received the message hands
   * it on, and the pipeline reads it without waiting another turn.
   */
  get received(): Received | undefined {
    return this.#settled;
  }

  async #runAuthenticate(authenticate: Authenticate): Promise<Authenticated> {
    try {
      const outcome = await authenticate(this.exchange.toRequest());
      return outcome instanceof Response ? { ok: false, reply: outcome } : { ok: true, auth: outcome };
    } catch (error) {
      this.#admission.onError(error);
      return { ok: false, reply: refuse(500, 'Internal error', {}, ErrorCode.InternalError) };
    }
  }

  async #receive(): Promise<Received> {
    const who = this.#admission.authenticate === undefined ? NOBODY : await this.authenticate();
    if (!who.ok) return this.#settle(who);
    const { headers } = this.exchange;
    if (!isJsonContentType(headers.get('content-type'))) {
      return this.#settle(refused(415, 'Unsupported Media Type: Content-Type must be application/json'));
    }
    if (!acceptsBoth(headers.get('accept'))) {
      return this.#settle(
        refused(406, 'Not Acceptable: Accept must allow application/json and text/event-stream'),
      );
    }
    const { maxBody } = this.#admission;
    let body: BodyResult;
    try {
      body = await this.exchange.readBody(maxBody);
    } catch {
      return this.#settle(refused(400, 'Bad Request: the body could not be read'));
    }
    if (!body.ok) {
      return this.#settle(
        body.unreadable === undefined
          ? refused(413, `Payload Too Large: the body exceeds ${maxBody} bytes`)
          : refused(400, `Bad Request: ${body.unreadable}`),
      );
    }
    const parsed = parseMessage(body.bytes);
    return this.#settle(
      parsed.ok
        ? { ok: true, auth: who.auth, message: parsed.message, kind: parsed.kind }
        : { ok: false, reply: json(400, parsed.error) },
    );
  }

  /** Keeps `received` for {@link received} and returns it. */
  #settle(received: Received): Received {
    this.#settled = received;
    return received;
  }
}

function refused(status: number, message: string): Received {
  return { ok: false, reply: refuse(status, message) };
}

/** @internal Hands an exchange on (to the 2026-07-28 pipeline, or an older era's next step). */
export type Next = (inbound: Inbound) => Promise<Reply>;

/**
 * @internal An older era of the endpoint (the 2025-11-25 one, from `eras.ts`), plugged in at the endpoint's one
 * seam. It is handed only the exchanges that are not 2026-07-28, past the Host/Origin check: a POST whose
 * message was received and names no protocol version in `_meta`, and anything but a POST that names an
 * `Mcp-Session-Id`. It answers them, or hands them on to `next` (in the end, the 2026-07-28 pipeline). A
 * 2026-07-28 POST never reaches it.
 */
export interface EndpointEra {
  serve(inbound: Inbound, next: Next): Promise<Reply>;
  /** Ends what the era keeps (sessions); the endpoint's `close()` calls it. */
  close(): Promise<void>;
}
