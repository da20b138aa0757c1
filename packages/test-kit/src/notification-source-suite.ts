// The contract of a shared NotificationSource (`@boomerang/server`'s busNotificationSource over a real bus: Redis
// pub/sub, PostgreSQL LISTEN/NOTIFY, PGlite), run by every bus adapter against its real backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multiByteText, within } from './steps.js';

/** A notification as the suite publishes and receives it (structurally `SubscriptionNotification`). */
export interface SuiteNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: object | undefined;
}

/** A member of a notification's params, as text. */
function member(notification: SuiteNotification, name: string): string {
  return String((notification.params as Record<string, unknown> | undefined)?.[name]);
}

/** What the suite needs of a source (structurally `SharedNotificationSource` of `@boomerang/server`). */
export interface SourceUnderTest {
  /** Takes a {@link SuiteNotification} (typed `never` so that sources typed with narrower unions fit). */
  publish(notification: never): Promise<void>;
  subscribe(
    filter: Record<string, unknown>,
    listener: (notification: SuiteNotification) => void,
    options?: { onInterrupted?: ((reason: Error) => void) | undefined },
  ): Promise<() => void>;
  close(): Promise<void>;
}

/** One backend for the whole suite: sources over it (one per simulated instance), and its restart. */
export interface SharedSourceBackend {
  /** A new source, as one more instance of the fleet would make it (its own connections). */
  source(): SourceUnderTest | Promise<SourceUnderTest>;
  /**
   * Restarts the backend (every connection drops). Absent for an in-process backend, which cannot drop (the
   * suite is then given `inProcess: true` and has no restart test).
   */
  restart?(): Promise<void>;
  /** Closes what `source()` made that the sources do not close themselves, and stops the backend. */
  close(): Promise<void>;
  /**
   * Writes `text` on the sources' channel as anyone with access to the backend could (`PUBLISH`, `pg_notify`),
   * without the instances' keys: the suite's forgeries.
   */
  inject(text: string): Promise<void>;
}

/** Options of {@link sharedNotificationSourceSuite}. */
export interface SharedSourceSuiteOptions {
  /** How long one wait for deliveries may take (default 10 s). */
  readonly stepTimeoutMs?: number;
  /** Why the suite cannot run here (a missing Debian package): it is skipped with this reason. */
  readonly skip?: string | undefined;
  /** The backend lives in the process and cannot restart (PGlite): the restart test is not part of the suite. */
  readonly inProcess?: boolean | undefined;
}

/** Publishes through a source whatever its declared notification type. */
function publish(source: SourceUnderTest, notification: SuiteNotification): Promise<void> {
  return (source.publish as (n: SuiteNotification) => Promise<void>)(notification);
}

const uri = (instance: number, n: number) => `test://instance-${instance}/${n}`;
const updated = (target: string): SuiteNotification => ({
  jsonrpc: '2.0',
  method: 'notifications/resources/updated',
  params: { uri: target },
});

async function until(what: string, ms: number, done: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The conformance suite of a shared notification source over a real backend (`setup` starts it once for the
 * suite):
 *
 * - every publication of every instance reaches every matching subscriber of every instance exactly once, and the
 *   publications of one instance arrive in the order it published them (three instances publishing concurrently);
 * - filters are honoured and `Unsubscribe` stops delivery;
 * - a notification far larger than PostgreSQL's 8,000-byte NOTIFY payload, multi-byte text included, arrives
 *   intact;
 * - what someone with write access to the backend but without the keys puts on the channel (a plain envelope
 *   naming a real instance and its next seq, an invented task result, junk) is never delivered and interrupts
 *   nobody, and the instance's next real message still arrives;
 * - when the backend restarts, every subscriber on every instance is told through `onInterrupted` (once), and
 *   subscriptions made once it is back receive again.
 */
export function sharedNotificationSourceSuite(
  name: string,
  setup: () => Promise<SharedSourceBackend>,
  options: SharedSourceSuiteOptions = {},
): void {
  describe.skipIf(options.skip !== undefined)(`shared notification source: ${name}`, () => {
    let backend: SharedSourceBackend | undefined;
    let sources: SourceUnderTest[] = [];
    const suite: SourceSuite = {
      stepMs: options.stepTimeoutMs ?? 10_000,
      backend: () => {
        if (backend === undefined) throw new Error('no backend: setup() did not make one');
        return backend;
      },
      more: async () => {
        const source = await suite.backend().source();
        sources.push(source);
        return source;
      },
    };

    beforeAll(async () => {
      backend = await setup();
    }, 60_000);

    afterAll(async () => {
      // Every source must close within 20 s (a close that hangs fails the suite, saying so); the backend is then
      // stopped whatever happened, so one hang never becomes a bare hook timeout.
      const closing = Promise.allSettled(sources.map((source) => source.close()));
      sources = [];
      await within('every source.close() to settle', closing, 20_000).finally(() => backend?.close());
    }, 60_000);

    deliveryTests(suite);
    integrityTests(suite);
    // An in-process backend cannot restart: the test is not registered at all (rather than reported skipped).
    if (options.inProcess !== true) restartTest(suite);
  });
}

/** What the groups of tests share: the backend `setup` started, and new sources over it (closed after the suite). */
interface SourceSuite {
  /** How long one wait for deliveries may take. */
  readonly stepMs: number;
  /** The backend `beforeAll` started. */
  backend(): SharedSourceBackend;
  /** One more instance's source, closed after the suite. */
  more(): Promise<SourceUnderTest>;
}

/** Every publication reaches every matching subscriber once, in order per instance; filters and unsubscribe hold. */
function deliveryTests({ stepMs, more }: SourceSuite): void {
  it('delivers every instance’s publications to every instance, once each, in order per instance', async () => {
    const instances = await Promise.all([more(), more(), more()]);
    const perInstance = 30;
    const targets = [1, 2, 3].flatMap((i) => Array.from({ length: perInstance }, (_, n) => uri(i, n)));
    const received: string[][] = [];
    for (const source of instances) {
      for (let copy = 0; copy < 2; copy++) {
        const got: string[] = [];
        received.push(got);
        await source.subscribe({ resourceSubscriptions: targets }, (n) => {
          got.push(member(n, 'uri'));
        });
      }
    }
    await Promise.all(
      instances.flatMap((source, i) =>
        Array.from({ length: perInstance }, (_, n) => publish(source, updated(uri(i + 1, n)))),
      ),
    );
    await until('every subscriber to receive 90 notifications', stepMs, () =>
      received.every((got) => got.length >= targets.length),
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // anything more would be a duplicate
    for (const got of received) {
      expect(got).toHaveLength(targets.length);
      expect(new Set(got).size).toBe(targets.length);
      for (const i of [1, 2, 3]) {
        const mine = got.filter((target) => target.startsWith(`test://instance-${i}/`));
        expect(mine).toEqual(Array.from({ length: perInstance }, (_, n) => uri(i, n)));
      }
    }
  }, 60_000);

  it('honours filters, and stops delivering after unsubscribe', async () => {
    const [a, b] = [await more(), await more()];
    const tools: string[] = [];
    const one: string[] = [];
    const stop = await b.subscribe({ toolsListChanged: true }, (n) => tools.push(n.method));
    await b.subscribe({ resourceSubscriptions: ['test://only'] }, (n) => one.push(member(n, 'uri')));
    await publish(a, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await publish(a, updated('test://other'));
    await publish(a, updated('test://only'));
    await until('the filtered notifications', stepMs, () => tools.length === 1 && one.length === 1);
    stop();
    await publish(a, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await publish(a, updated('test://only'));
    await until('the second update', stepMs, () => one.length === 2);
    expect(tools).toEqual(['notifications/tools/list_changed']);
    expect(one).toEqual(['test://only', 'test://only']);
  }, 60_000);
}

/** What arrives is what was published: large notifications intact, nothing written without the keys. */
function integrityTests({ stepMs, backend, more }: SourceSuite): void {
  it('carries a notification far over 8,000 bytes (multi-byte text included) intact', async () => {
    const [a, b] = [await more(), await more()];
    const big = `test://big/${multiByteText(40_000)}`;
    const task: SuiteNotification = {
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: {
        taskId: 't-big',
        status: 'completed',
        result: { content: [{ type: 'text', text: 'é'.repeat(30_000) }] },
      },
    };
    const got: SuiteNotification[] = [];
    await b.subscribe({ resourceSubscriptions: [big], taskIds: ['t-big'] }, (n) => got.push(n));
    await publish(a, updated('test://small-before'));
    await publish(a, updated(big));
    await publish(a, task);
    await until('the two large notifications', stepMs, () => got.length === 2);
    expect(got[0]).toEqual(updated(big));
    expect(got[1]).toEqual(task);
  }, 60_000);

  it('never delivers what is written on the channel without the keys, and interrupts nobody', async () => {
    const [a, b] = [await more(), await more()];
    const got: SuiteNotification[] = [];
    const interrupted: Error[] = [];
    await b.subscribe({ taskIds: ['t-forged'], toolsListChanged: true }, (n) => got.push(n), {
      onInterrupted: (reason) => interrupted.push(reason),
    });
    await publish(a, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await until('the genuine notification', stepMs, () => got.length === 1);
    const invented = {
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: {
        taskId: 't-forged',
        status: 'completed',
        result: { content: [{ type: 'text', text: 'no' }] },
      },
    };
    for (let seq = 1; seq <= 5; seq++) {
      await backend().inject(
        JSON.stringify({ boomerang: 1, origin: 'f'.repeat(24), seq, notification: invented }),
      );
    }
    await backend().inject('ref:1');
    await backend().inject('x'.repeat(200));
    await publish(a, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await until('the second genuine notification', stepMs, () => got.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(got.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
    ]);
    expect(interrupted).toEqual([]);
  }, 60_000);
}

/** A restart of the backend is told to every subscriber once; subscriptions made afterwards receive again. */
function restartTest({ stepMs, backend, more }: SourceSuite): void {
  it('tells every subscriber of every instance when the backend restarts; new subscriptions receive again', async () => {
    const restartable = backend();
    if (restartable.restart === undefined)
      throw new Error('the backend has no restart(): pass inProcess: true');
    const instances = [await more(), await more()];
    const told: Error[][] = [];
    for (const source of instances) {
      const reasons: Error[] = [];
      told.push(reasons);
      await source.subscribe({ toolsListChanged: true }, () => {}, {
        onInterrupted: (reason) => reasons.push(reason),
      });
    }
    await restartable.restart();
    await until('every subscriber to be told', stepMs, () => told.every((reasons) => reasons.length > 0));
    for (const reasons of told) {
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toBeInstanceOf(Error);
    }
    const [a, b] = instances as [SourceUnderTest, SourceUnderTest];
    const again: string[] = [];
    await b.subscribe({ toolsListChanged: true }, (n) => again.push(n.method));
    // The publisher's connection may still be coming back: publish until one goes through.
    const deadline = Date.now() + stepMs * 2;
    while (again.length === 0) {
      if (Date.now() > deadline) throw new Error('no publication went through after the restart');
      void publish(a, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(told.every((reasons) => reasons.length === 1)).toBe(true);
  }, 90_000);
}
