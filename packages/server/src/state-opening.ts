// A multi-round-trip request's `requestState`, as the middleware path opens it: once, and only when something
// needs it (a middleware reading the round, or the request going on to its handler), so a middleware that
// refuses the request first (a rate limit, an auth check) costs the server no unsealing.
import { isPlainObject, isThenable } from '@boomerang/protocol';
import { frameOf, type OpenedState, type RequestStateBinding } from './sealed.js';

/** A request's `requestState` opened before its handler: its value, or why it did not open. */
export interface EarlyState {
  readonly binding: RequestStateBinding;
  readonly opened: { readonly value: string | OpenedState } | { readonly error: unknown };
}

/** What a request's state tells its middleware: the round of the flow, what was carried, why it was refused. */
export interface StateView {
  readonly round: number;
  readonly carried: Readonly<Record<string, string>>;
  readonly stateRefusal: string | undefined;
}

type Opened = EarlyState | undefined;

const UNOPENED: unique symbol = Symbol('unopened');
const NO_CARRIED: Readonly<Record<string, string>> = Object.freeze({});

/** One request's state, opened at most once, on first need (see the file comment). */
export class StateOpening {
  readonly #open: () => Opened | Promise<Opened>;
  readonly #retry: boolean;
  #opened: Opened | Promise<Opened> | typeof UNOPENED = UNOPENED;

  /**
   * `open` opens the state (synchronously when the envelope does; `undefined` when there is nothing to open);
   * `retry` says whether the request brings answers or state (its round when the state names none).
   */
  constructor(open: () => Opened | Promise<Opened>, retry: boolean) {
    this.#open = open;
    this.#retry = retry;
  }

  /** The opened state, opening it now if nothing has yet. */
  opened(): Opened | Promise<Opened> {
    if (this.#opened === UNOPENED) {
      const opening = this.#open();
      this.#opened = opening;
      if (isThenable(opening)) {
        opening.then((settled) => {
          this.#opened = settled;
        });
      }
    }
    return this.#opened;
  }

  /**
   * What middleware read of the state. Opens it if needed; while an envelope that opens asynchronously is still
   * at it, the view is what the request alone says (round `1` for a retry, nothing carried, no refusal).
   */
  view(): StateView {
    const early = this.opened();
    if (isThenable(early))
      return { round: roundOf(undefined, this.#retry), carried: NO_CARRIED, stateRefusal: undefined };
    const value = early !== undefined && 'value' in early.opened ? early.opened.value : undefined;
    return {
      round: roundOf(value, this.#retry),
      carried: value === undefined ? NO_CARRIED : frameOf(value).carried,
      stateRefusal: early !== undefined && 'error' in early.opened ? reasonOf(early.opened.error) : undefined,
    };
  }
}

/**
 * A request's round: one after the round that minted its state when the state says so, else `1` for any retry
 * (answers or state without a frame) and `0` for a first round.
 */
export function roundOf(opened: string | OpenedState | undefined, retry: boolean): number {
  if (opened !== undefined && typeof opened !== 'string') return opened.frame.round + 1;
  return retry ? 1 : 0;
}

/** `SealError.reason` when there is one, else the error's message: for logs only. */
export function reasonOf(error: unknown): string {
  if (isPlainObject(error) || error instanceof Error) {
    const reason: unknown = Reflect.get(error, 'reason');
    if (typeof reason === 'string') return reason;
    if (error instanceof Error) return error.message;
  }
  return String(error);
}
