import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnsweringClock, ResponseDeadlines } from './response-deadlines.js';

describe('ResponseDeadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts with its own reason once the limit plus the window elapsed', async () => {
    const deadlines = new ResponseDeadlines(new AnsweringClock());
    const deadline = deadlines.join(1_000); // window: 100 ms
    await vi.advanceTimersByTimeAsync(1_099);
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(deadline.reason);
    deadline.leave();
  });

  it('shares one signal within the window, opens a new one after it, and after an expiry', async () => {
    const deadlines = new ResponseDeadlines(new AnsweringClock());
    const a = deadlines.join(1_000);
    await vi.advanceTimersByTimeAsync(99);
    const b = deadlines.join(1_000);
    expect(b).toBe(a);
    await vi.advanceTimersByTimeAsync(1);
    const c = deadlines.join(1_000);
    expect(c.signal).not.toBe(a.signal);
    const other = deadlines.join(2_000); // another limit, another window
    expect(other.signal).not.toBe(c.signal);
    other.leave();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(a.signal.aborted).toBe(true);
    expect(c.signal.aborted).toBe(false);
    for (const deadline of [a, b, c]) deadline.leave();
  });

  it('does not expire when nobody waits any more, and arms again for a request joining later', async () => {
    const deadlines = new ResponseDeadlines(new AnsweringClock());
    const a = deadlines.join(60_000);
    a.leave();
    await vi.advanceTimersByTimeAsync(61_000); // the window's budget: 60 s, plus a window of 1 s
    expect(a.signal.aborted).toBe(false); // nobody was waiting
    const b = deadlines.join(60_000); // the window is over: a new deadline
    expect(b).not.toBe(a);
    await vi.advanceTimersByTimeAsync(500);
    const c = deadlines.join(60_000); // same window
    expect(c).toBe(b);
    b.leave();
    await vi.advanceTimersByTimeAsync(60_499); // 61 s after b's window opened
    expect(c.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(c.signal.aborted).toBe(true);
    c.leave();
  });

  it('a closed window whose requests all left holds no timer (garbage at once, not after its limit)', async () => {
    const deadlines = new ResponseDeadlines(new AnsweringClock());
    const a = deadlines.join(300_000); // window: 1 s
    const b = deadlines.join(300_000);
    expect(b).toBe(a);
    expect(a.armed).toBe(true);
    expect(vi.getTimerCount()).toBe(2); // the window's close and the deadline's check
    a.leave();
    await vi.advanceTimersByTimeAsync(1_000); // the window closes while b still waits
    expect(a.armed).toBe(true);
    expect(vi.getTimerCount()).toBe(1);
    b.leave(); // the last request leaves a closed window
    expect(a.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    // A window all of whose requests left before it closed stops its timer when it closes.
    const c = deadlines.join(300_000);
    c.leave();
    expect(c.armed).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(c.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    expect(c.signal.aborted).toBe(false);
  });

  it('a window whose timer fired late waits longer: its latest request still gets the whole limit', async () => {
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const deadlines = new ResponseDeadlines(new AnsweringClock());
      const deadline = deadlines.join(1_000); // window: 100 ms
      now = 250; // the event loop was busy: the window closes 150 ms late, a request may have joined at 249
      await vi.advanceTimersByTimeAsync(100);
      expect(deadline.joinable).toBe(false);
      expect(deadline.budgetMs).toBe(1_250);
      const next = deadlines.join(1_000);
      expect(next).not.toBe(deadline);
      next.leave();
      now = 1_100; // limit + window: not yet
      await vi.advanceTimersByTimeAsync(1_000);
      expect(deadline.signal.aborted).toBe(false);
      now = 1_250;
      await vi.advanceTimersByTimeAsync(150);
      expect(deadline.signal.aborted).toBe(true);
      deadline.leave();
    } finally {
      clock.mockRestore();
    }
  });

  it("lifts Node's listener limit on its shared signal: a listener per waiting request, no warning", () => {
    const warn = vi.spyOn(process, 'emitWarning');
    try {
      const deadline = new ResponseDeadlines(new AnsweringClock()).join(1_000);
      const listeners = Array.from({ length: 50 }, () => () => {});
      for (const listener of listeners) deadline.signal.addEventListener('abort', listener);
      expect(warn).not.toHaveBeenCalled();
      for (const listener of listeners) deadline.signal.removeEventListener('abort', listener);
      deadline.leave();
    } finally {
      warn.mockRestore();
    }
  });

  it('does not count the time the connection spends answering the server', async () => {
    const clock = new AnsweringClock();
    const deadlines = new ResponseDeadlines(clock);
    const deadline = deadlines.join(1_000);
    await vi.advanceTimersByTimeAsync(200);
    clock.enter();
    clock.enter(); // two server requests at once count once
    await vi.advanceTimersByTimeAsync(3_000);
    clock.leave();
    await vi.advanceTimersByTimeAsync(500);
    clock.leave();
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(899); // 200 + 899 = 1,099 ms not spent answering
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(deadline.signal.aborted).toBe(true);
    deadline.leave();
  });
});
