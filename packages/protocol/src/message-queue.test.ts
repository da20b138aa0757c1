import { describe, expect, it, vi } from 'vitest';
import { MessageQueue } from './message-queue.js';
import type { JSONRPCMessage } from './schema/index.js';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: `n/${n}` });

describe('MessageQueue', () => {
  it('hands messages over in order, to waiting readers first, then from the buffer', async () => {
    const queue = new MessageQueue();
    const waiting = queue.next();
    queue.push(note(1));
    queue.push(note(2));
    queue.push(note(3));
    expect((await waiting).value).toEqual(note(1));
    expect((await queue.next()).value).toEqual(note(2));
    expect((await queue.next()).value).toEqual(note(3));
  });

  it('end(): queued messages are still read, then done; pushes after it are ignored', async () => {
    const queue = new MessageQueue();
    queue.push(note(1));
    queue.end();
    queue.push(note(2));
    expect(queue.ended).toBe(true);
    expect(await queue.next()).toEqual({ done: false, value: note(1) });
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });

  it('end() releases waiting readers; discard() drops what was unread', async () => {
    const queue = new MessageQueue();
    const waiting = queue.next();
    queue.end();
    expect(await waiting).toEqual({ done: true, value: undefined });
    const other = new MessageQueue();
    other.push(note(1));
    other.discard();
    expect(await other.next()).toEqual({ done: true, value: undefined });
  });

  it('keeps order across many messages (the head is compacted as it moves)', async () => {
    const queue = new MessageQueue();
    for (let i = 0; i < 5000; i++) queue.push(note(i));
    for (let i = 0; i < 5000; i++) expect((await queue.next()).value).toEqual(note(i));
  });

  it('iterable(): one consumer, onStart once, leaving early discards and calls onReturn', async () => {
    const queue = new MessageQueue();
    const onStart = vi.fn();
    const onReturn = vi.fn(async () => {});
    const messages = queue.iterable({ onStart, onReturn });
    queue.push(note(1));
    queue.push(note(2));
    for await (const message of messages) {
      expect(message).toEqual(note(1));
      break;
    }
    expect(onStart).toHaveBeenCalledTimes(1);
    expect(onReturn).toHaveBeenCalledTimes(1);
    expect(await queue.next()).toEqual({ done: true, value: undefined });
    expect(() => messages[Symbol.asyncIterator]()).toThrow(TypeError);
  });

  it('weight: the sum of what push was given for the messages not yet read, across compaction', async () => {
    const queue = new MessageQueue();
    const waiting = queue.next();
    queue.push(note(0), 100); // straight to the waiting reader: never queued
    await waiting;
    expect(queue.weight).toBe(0);
    for (let i = 0; i < 3000; i++) queue.push(note(i), 2);
    expect(queue.weight).toBe(6000);
    for (let i = 0; i < 2000; i++) await queue.next();
    expect(queue.weight).toBe(2000);
    queue.push(note(1)); // weight 0 by default
    expect(queue.weight).toBe(2000);
    queue.discard();
    expect(queue.weight).toBe(0);
  });

  it('iterable(): onNext runs after each message is taken', async () => {
    const queue = new MessageQueue();
    const seen: number[] = [];
    const messages = queue.iterable({ onReturn: async () => {}, onNext: () => seen.push(queue.weight) });
    queue.push(note(1), 5);
    queue.push(note(2), 7);
    const iterator = messages[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    expect(seen).toEqual([7, 0]);
  });
});
