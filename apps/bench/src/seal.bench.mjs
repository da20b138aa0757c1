// Seal benchmark: @boomerang/seal against the raw ciphers it uses, the native AES-256-GCM limit and the official
// MCP TypeScript SDK 2.4.0's request-state codec, in one process and one run. Each cell is a full round trip
// (seal + unseal, encrypt + decrypt, mint + verify) at 100 B, 1 KB and 10 KB payloads. Cases run interleaved in
// several short rounds and report the median, so a noisy neighbour hurts every case alike and ratios stay fair.
//
// Run after `pnpm --filter @boomerang/seal build`:
//   node apps/bench/src/seal.bench.mjs [--duration=250] [--rounds=7] [--sizes=100,1024,10240] [--clock=cpu|wall]
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import * as sealNode from '@boomerang/seal';
import * as sealPortable from '@boomerang/seal/portable';
import { createRequestStateCodec } from '@modelcontextprotocol/server';

const options = parseOptions();
if (sealNode.sealBackend !== 'node' || sealPortable.sealBackend !== 'portable') {
  throw new Error('expected the node build from "@boomerang/seal" and the portable one from "/portable"');
}

// "The raw AEAD of the same library": @noble/ciphers as @boomerang/seal itself resolves it (not a bench dependency).
const fromSeal = createRequire(import.meta.resolve('@boomerang/seal'));
const importFromSeal = (id) => import(pathToFileURL(fromSeal.resolve(id)).href);
const { xchacha20poly1305, hchacha } = await importFromSeal('@noble/ciphers/chacha.js');
const { gcm, gcmsiv } = await importFromSeal('@noble/ciphers/aes.js');

const key = sealNode.generateKey();
const b64 = (n) => Math.ceil((n * 4) / 3);

// --- cases: each returns { run(): void | Promise<void>, overhead: bytes added to the payload on the wire }
const cases = [
  {
    name: 'boomerang seal+unseal (node)',
    make: (payload) => sealCase(sealNode, payload),
  },
  {
    name: 'boomerang seal+unseal (portable)',
    make: (payload) => sealCase(sealPortable, payload),
  },
  {
    name: 'boomerang sealJson+unsealJson, context (node)',
    make: (payload) => {
      const sealer = sealNode.createSealer({ keys: [key], audience: 'bench' });
      const value = { data: Buffer.from(payload).toString('base64url') };
      const token = sealer.sealJson(value, { context: 'tools/call:order_book' });
      return {
        overhead: token.length - b64(payload.length),
        run: () => {
          const t = sealer.sealJson(value, { context: 'tools/call:order_book' });
          if (sealer.unsealJson(t, { context: 'tools/call:order_book' }).data.length !== value.data.length)
            fail();
        },
      };
    },
  },
  {
    name: 'raw XChaCha20-Poly1305, node:crypto + JS HChaCha20',
    make: (payload) => {
      const aead = nodeXChaCha(key);
      const ad = new Uint8Array(7);
      return {
        overhead: 24 + 16,
        run: () => {
          const nonce = randomBytes(24);
          const sealed = aead.seal(nonce, ad, payload);
          if (aead.open(nonce, ad, sealed).length !== payload.length) fail();
        },
      };
    },
  },
  {
    name: 'raw XChaCha20-Poly1305, @noble/ciphers',
    make: (payload) => {
      const ad = new Uint8Array(7);
      return {
        overhead: 24 + 16,
        run: () => {
          const nonce = randomBytes(24);
          const sealed = xchacha20poly1305(key, nonce, ad).encrypt(payload);
          if (xchacha20poly1305(key, nonce, ad).decrypt(sealed).length !== payload.length) fail();
        },
      };
    },
  },
  // The other candidates of the cipher choice, pure JS (Node 20's OpenSSL 3.0 has no AES-GCM-SIV).
  ...[
    ['raw AES-256-GCM-SIV, @noble/ciphers', gcmsiv],
    ['raw AES-256-GCM, @noble/ciphers', gcm],
  ].map(([name, cipher]) => ({
    name,
    make: (payload) => ({
      overhead: 12 + 16,
      run: () => {
        const nonce = randomBytes(12);
        const sealed = cipher(key, nonce).encrypt(payload);
        if (cipher(key, nonce).decrypt(sealed).length !== payload.length) fail();
      },
    }),
  })),
  {
    name: 'raw AES-256-GCM, node:crypto',
    make: (payload) => ({
      overhead: 12 + 16,
      run: () => {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', key, iv);
        const sealed = Buffer.concat([cipher.update(payload), cipher.final(), cipher.getAuthTag()]);
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(sealed.subarray(sealed.length - 16));
        const plain = Buffer.concat([
          decipher.update(sealed.subarray(0, sealed.length - 16)),
          decipher.final(),
        ]);
        if (plain.length !== payload.length) fail();
      },
    }),
  },
  {
    name: 'official createRequestStateCodec mint+verify (HMAC, not encrypted)',
    make: async (payload) => {
      const codec = createRequestStateCodec({ key, ttlSeconds: 600 });
      const value = Buffer.from(payload).toString('base64url');
      const state = await codec.mint(value);
      return {
        overhead: state.length - b64(payload.length),
        run: async () => {
          if ((await codec.verify(await codec.mint(value))) !== value) fail();
        },
      };
    },
  },
];

function sealCase(api, payload) {
  const sealer = api.createSealer({ keys: [key], audience: 'bench' });
  const token = sealer.seal(payload);
  return {
    overhead: token.length - b64(payload.length),
    run: () => {
      if (sealer.unseal(sealer.seal(payload)).length !== payload.length) fail();
    },
  };
}

/** The raw cipher of the node backend: HChaCha20 (JS) for the subkey, OpenSSL ChaCha20-Poly1305 for the rest. */
function nodeXChaCha(secret) {
  const sigma = new Uint32Array(new Uint8Array(Buffer.from('expand 32-byte k')).buffer);
  const k32 = new Uint32Array(new Uint8Array(secret).buffer);
  const derive = (nonce) => {
    const sub = new Uint32Array(8);
    hchacha(sigma, k32, new Uint32Array(new Uint8Array(nonce.subarray(0, 16)).buffer), sub);
    const iv = Buffer.alloc(12);
    iv.set(nonce.subarray(16), 4);
    return [new Uint8Array(sub.buffer), iv];
  };
  return {
    seal(nonce, ad, plain) {
      const [k, iv] = derive(nonce);
      const c = createCipheriv('chacha20-poly1305', k, iv, { authTagLength: 16 });
      c.setAAD(ad, { plaintextLength: plain.length });
      return Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
    },
    open(nonce, ad, sealed) {
      const [k, iv] = derive(nonce);
      const d = createDecipheriv('chacha20-poly1305', k, iv, { authTagLength: 16 });
      d.setAAD(ad, { plaintextLength: sealed.length - 16 });
      d.setAuthTag(sealed.subarray(sealed.length - 16));
      return Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
    },
  };
}

function fail() {
  throw new Error('round trip returned the wrong payload');
}

// --- measurement: ops per second of this process's CPU time (user + system), not of wall time. Other processes
// on a shared machine stretch wall time but barely touch CPU time, so rates and ratios stay comparable
// (`--clock=wall` reports wall-clock rates instead).
async function opsPerSecond(run, ms) {
  const isAsync = run() instanceof Promise;
  let n = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    if (isAsync) for (let i = 0; i < 50; i++) await run();
    else for (let i = 0; i < 50; i++) run();
    n += 50;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpu0);
  const seconds = options.clock === 'wall' ? (now - start) / 1000 : (cpu.user + cpu.system) / 1e6;
  return n / seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `\nseal: ${cases.length} cases × ${options.sizes.length} sizes × ${options.rounds} rounds × ${options.durationMs} ms` +
    ` (${options.clock === 'wall' ? 'wall-clock' : 'CPU-time'} rates) — node ${process.version}, OpenSSL ${process.versions.openssl}, ${process.platform}/${process.arch}`,
);
const results = new Map(); // `${case}|${size}` → { ops (median), samples (one per round), overhead }
for (const size of options.sizes) {
  const payload = new Uint8Array(randomBytes(size));
  const made = [];
  for (const c of cases) made.push({ name: c.name, ...(await c.make(payload)) });
  for (const m of made) await opsPerSecond(m.run, Math.min(100, options.durationMs)); // warm-up
  const samples = made.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    for (const [i, m] of made.entries()) samples[i].push(await opsPerSecond(m.run, options.durationMs));
  }
  for (const [i, m] of made.entries()) {
    results.set(`${m.name}|${size}`, { ops: median(samples[i]), samples: samples[i], overhead: m.overhead });
  }
}

// --- report
const label = (n) => (n >= 1024 ? `${n / 1024} KB` : `${n} B`);
const cell = (name, size) => results.get(`${name}|${size}`);
const width = Math.max(...cases.map((c) => c.name.length));
console.log(
  `\n${'case'.padEnd(width)}  ${options.sizes.map((s) => `${label(s)} ops/s`.padStart(13)).join('')}  overhead`,
);
for (const c of cases) {
  const row = options.sizes.map((s) => Math.round(cell(c.name, s).ops).toLocaleString('en-US').padStart(13));
  const overhead = cell(c.name, options.sizes[0]).overhead;
  console.log(`${c.name.padEnd(width)}  ${row.join('')}  ${overhead} B`);
}
console.log(
  '\n(overhead: token characters beyond base64url(payload); raw ciphers: binary nonce + tag bytes)',
);

// A ratio is the median of per-round ratios: both sides of a round ran seconds apart, under the same load.
const ratio = (a, b, size) => median(cell(a, size).samples.map((x, r) => x / cell(b, size).samples[r]));
const byName = (prefix) => cases.find((c) => c.name.startsWith(prefix)).name;
const nodeSeal = byName('boomerang seal+unseal (node)');
const portableSeal = byName('boomerang seal+unseal (portable)');
const rawNode = byName('raw XChaCha20-Poly1305, node');
const rawNoble = byName('raw XChaCha20-Poly1305, @noble');
const aesGcm = byName('raw AES-256-GCM, node');
const official = byName('official');
const ratios = [
  ['node seal / raw node XChaCha (envelope cost, target ≥ 0.77 = ≤ 30 %)', nodeSeal, rawNode],
  ['portable seal / raw noble XChaCha (envelope cost, target ≥ 0.77)', portableSeal, rawNoble],
  ['node seal / raw AES-256-GCM (native limit, target ≥ 0.85 at 1 KB)', nodeSeal, aesGcm],
  ['raw node XChaCha / raw AES-256-GCM (the cipher alone)', rawNode, aesGcm],
  ['node seal / portable seal', nodeSeal, portableSeal],
  ['node seal / official codec', nodeSeal, official],
];
const rwidth = Math.max(...ratios.map((r) => r[0].length));
console.log(`\n${'ratio'.padEnd(rwidth)}  ${options.sizes.map((s) => label(s).padStart(8)).join('')}`);
for (const [title, a, b] of ratios) {
  console.log(
    `${title.padEnd(rwidth)}  ${options.sizes.map((s) => ratio(a, b, s).toFixed(2).padStart(8)).join('')}`,
  );
}

function parseOptions() {
  const arg = (name, fallback) => {
    const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
    return hit === undefined ? fallback : hit.slice(name.length + 3);
  };
  return {
    durationMs: Number(arg('duration', '250')),
    rounds: Number(arg('rounds', '7')),
    sizes: arg('sizes', '100,1024,10240').split(',').map(Number),
    clock: arg('clock', 'cpu'),
  };
}
