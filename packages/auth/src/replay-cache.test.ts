import { describe, expect, it } from 'vitest';
import { type DpopReplayVerdict, memoryReplayCache } from './replay-cache.js';

/** A cache on a clock the test moves, in whole seconds. */
function onClock(max?: number, maxPerOwner?: number) {
  const clock = { seconds: 1_000_000 };
  const cache = memoryReplayCache({
    ...(max !== undefined && { max }),
    ...(maxPerOwner !== undefined && { maxPerOwner }),
    now: () => clock.seconds * 1000,
  });
  return { cache, clock };
}

describe('memoryReplayCache', () => {
  it('refuses a key within its window and forgets it after', () => {
    const { cache, clock } = onClock(3);
    expect(cache.remember('a', clock.seconds + 60)).toBe(true);
    expect(cache.remember('a', clock.seconds + 60)).toBe(false);
    clock.seconds += 61;
    expect(cache.remember('a', clock.seconds + 60)).toBe(true); // expired, so new again
  });

  it("remembers Alice's proof through 10,000 of Mallory's (issue 35, defect 6)", () => {
    const { cache, clock } = onClock();
    expect(cache.remember('alice', clock.seconds + 70)).toBe(true);
    for (let i = 0; i < 10_000; i++) expect(cache.remember(`mallory-${i}`, clock.seconds + 70)).toBe(true);
    expect(cache.remember('alice', clock.seconds + 70)).toBe(false);
  });

  it('when full, shrinks the window instead of forgetting: dropped and older keys answer "window"', () => {
    const { cache, clock } = onClock(3);
    const t = clock.seconds;
    expect(cache.remember('alice', t + 70)).toBe(true);
    expect(cache.remember('m1', t + 70)).toBe(true);
    expect(cache.remember('m2', t + 70)).toBe(true);
    // Full, and no younger than what it holds: refused, nothing forgotten.
    expect(cache.remember('m3', t + 70)).toBe('window');
    expect(cache.remember('alice', t + 70)).toBe(false);
    // A younger key makes room by dropping the oldest second, whose keys (Alice's) are then refused as too old.
    clock.seconds += 1;
    expect(cache.remember('m4', t + 71)).toBe(true);
    expect(cache.remember('alice', t + 70)).toBe('window');
    expect(cache.remember('m1', t + 70)).toBe('window');
    expect(cache.remember('fresh', t + 69)).toBe('window'); // older than the floor: refused too
    expect(cache.remember('m4', t + 71)).toBe(false);
    expect(cache.remember('m5', t + 72)).toBe(true);
    expect(cache.remember('m6', t + 73)).toBe(true);
  });

  it('drops the earliest expiry when full, whatever the order keys arrived in', () => {
    const { cache, clock } = onClock(3);
    const t = clock.seconds;
    expect(cache.remember('late', t + 70)).toBe(true);
    expect(cache.remember('early', t + 10)).toBe(true);
    expect(cache.remember('middle', t + 40)).toBe(true);
    expect(cache.remember('new', t + 50)).toBe(true); // drops "early" (t + 10), not "late", which came first
    expect(cache.remember('late', t + 70)).toBe(false);
    expect(cache.remember('middle', t + 40)).toBe(false);
    expect(cache.remember('early', t + 10)).toBe('window');
  });

  it('holds at most max keys: past it, the earliest ones answer "window", the rest "false"', () => {
    const { cache, clock } = onClock(1000);
    const t = clock.seconds;
    for (let i = 0; i < 1500; i++) expect(cache.remember(`k${i}`, t + 10 + i)).toBe(true);
    const answers = new Map<DpopReplayVerdict, number>();
    for (let i = 0; i < 1500; i++) {
      const verdict = cache.remember(`k${i}`, t + 10 + i) as DpopReplayVerdict;
      answers.set(verdict, (answers.get(verdict) ?? 0) + 1);
      if (i < 500) expect(verdict).toBe('window');
    }
    expect(Object.fromEntries(answers)).toEqual({ window: 500, false: 1000 });
  });

  it('a clock set back brings back no key it dropped as expired', () => {
    const { cache, clock } = onClock(3);
    const t = clock.seconds;
    expect(cache.remember('a', t + 70)).toBe(true);
    clock.seconds += 100; // "a" expires, and is swept by the next check
    expect(cache.remember('b', clock.seconds + 70)).toBe(true);
    clock.seconds = t; // NTP steps the clock back: "a" looks unexpired again
    expect(cache.remember('a', t + 70)).toBe('window');
    expect(cache.remember('c', t + 171)).toBe(true); // keys past the floor still work
  });

  it('a clock that jumps ahead and back refuses the proofs it dropped meanwhile, and only those', () => {
    const { cache, clock } = onClock(3);
    const t = clock.seconds;
    expect(cache.remember('a', t + 70)).toBe(true);
    clock.seconds += 3600; // an hour ahead: "a" is swept as expired
    expect(cache.remember('b', clock.seconds + 70)).toBe(true);
    clock.seconds = t + 1; // and back
    expect(cache.remember('a', t + 70)).toBe('window');
    expect(cache.remember('fresh', t + 71)).toBe(true); // proofs signed now pass: no hour of refusals
    expect(cache.remember('fresh', t + 71)).toBe(false);
    expect(cache.remember('b', t + 3670)).toBe(false); // still held
  });

  it('never accepts a proof twice while it could be accepted (seeded random runs against a model)', () => {
    let seed = 0x9e3779b9;
    const random = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    let fresh = 0;
    for (let run = 0; run < 50; run++) {
      const { cache, clock } = onClock(1 + random(40), 1 + random(20));
      const proofs: { key: string; expiresAt: number; accepted: boolean }[] = [];
      for (let step = 0; step < 2000; step++) {
        if (random(10) === 0) clock.seconds += random(20);
        if (random(50) === 0) clock.seconds -= random(15); // and sometimes back
        // A proof is a key and the expiry its iat gives: a replay repeats both.
        const replay = proofs.length > 0 && random(2) === 0;
        const proof = replay
          ? (proofs[random(proofs.length)] as (typeof proofs)[number])
          : {
              key: `o${random(3)}:k${proofs.length}`,
              expiresAt: clock.seconds + 1 + random(80),
              accepted: false,
            };
        if (!replay) proofs.push(proof);
        const verdict = cache.remember(proof.key, proof.expiresAt);
        if (proof.accepted && proof.expiresAt > clock.seconds) expect(verdict).not.toBe(true);
        if (verdict === true) {
          proof.accepted = true;
          if (!replay) fresh++;
        }
      }
    }
    expect(fresh).toBeGreaterThan(10_000); // the runs did accept proofs, not refuse everything
  });

  it("one key's flood shrinks only its own share: others' fresh proofs pass (probe: iat + 5 s lockout)", () => {
    const { cache, clock } = onClock(1_000, 100);
    const t = clock.seconds;
    // Mallory dates her proofs 5 s ahead (allowed skew): they expire after anyone's signed now.
    let refused = 0;
    for (let i = 0; i < 2_000; i++) if (cache.remember(`mallory:${i}`, t + 70) !== true) refused++;
    expect(refused).toBe(1_900);
    for (const age of [0, 2, 10]) expect(cache.remember(`alice:now-${age}`, t + 65 - age)).toBe(true);
    expect(cache.remember('alice:now-0', t + 65)).toBe(false);
    // Her share frees as her own proofs expire.
    clock.seconds = t + 70;
    expect(cache.remember('mallory:again', clock.seconds + 70)).toBe(true);
  });

  it('a full cache still never forgets across owners: 20 owners of 100 fill a max of 1,000', () => {
    const { cache, clock } = onClock(1_000, 100);
    const t = clock.seconds;
    for (let owner = 0; owner < 20; owner++) {
      for (let i = 0; i < 100; i++) cache.remember(`o${owner}:${i}`, t + 10 + owner);
    }
    let replayed = 0;
    for (let owner = 0; owner < 20; owner++) {
      for (let i = 0; i < 100; i++) if (cache.remember(`o${owner}:${i}`, t + 10 + owner) === true) replayed++;
    }
    expect(replayed).toBe(0);
  });

  it('refuses wrong arguments', () => {
    expect(() => memoryReplayCache({ maxPerOwner: 0 })).toThrow(RangeError);
    expect(() => memoryReplayCache({ maxPerOwner: 'x' as never })).toThrow(TypeError);
    expect(() => memoryReplayCache({ max: 0 })).toThrow(RangeError);
    expect(() => memoryReplayCache({ max: 1.5 })).toThrow(RangeError);
    expect(() => memoryReplayCache({ max: '10' as never })).toThrow(
      new TypeError('"max" expected an integer ≥ 1, got string'),
    );
    expect(() => memoryReplayCache({ now: 5 as never })).toThrow(
      new TypeError('"now" expected a function, got number'),
    );
    const cache = memoryReplayCache();
    expect(() => cache.remember(5 as never, 10)).toThrow(
      new TypeError('"key" expected a string, got number'),
    );
    expect(() => cache.remember('k', Number.NaN)).toThrow(TypeError);
    expect(() => cache.remember('k', '10' as never)).toThrow(TypeError);
  });
});
