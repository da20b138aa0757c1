// Examples quoted into README.md: each region between `#region name` and `#endregion name`, dedented, with its
// leading `// import …` comment lines shown as the imports they stand for. seal.examples.test.ts keeps the
// README in sync with these regions and runs every example.

import {
  createSealer,
  generateKey,
  parseKeys,
  type SealCodec,
  SealError,
  type Sealer,
} from '@boomerang/seal';
import { gcmsiv } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';

export function quickStart(): unknown {
  // #region quick-start
  // import { createSealer, generateKey } from '@boomerang/seal';

  const key = generateKey(); // in production: parseKeys(process.env.SEAL_KEYS), see "Keys and rotation"
  const sealer = createSealer({ keys: [key], ttlSeconds: 600, audience: 'orders-service' });

  // Seal some state into an opaque, URL-safe string and hand it to the client...
  const token = sealer.sealJson({ cart: 42, step: 'payment' }, { context: 'checkout:42' });
  console.log(token); // sl1_… (encrypted; a new string every time)

  // ...and open it when it comes back: same audience, same context, not expired, not tampered with.
  const state = sealer.unsealJson(token, { context: 'checkout:42' });
  console.log(state); // { cart: 42, step: 'payment' }
  // #endregion quick-start
  return state;
}

export function keysFromEnv(): Sealer {
  // #region keys-from-env
  // import { createSealer, parseKeys } from '@boomerang/seal';

  // SEAL_KEYS=<newest>,<older>: keys from `boomerang-seal keygen`. The first seals, all of them unseal.
  const sealer = createSealer({ keys: parseKeys(process.env.SEAL_KEYS ?? ''), audience: 'orders-service' });
  // #endregion keys-from-env
  return sealer;
}

export function onTheWire(sealer: Sealer, token: string): unknown {
  // #region on-the-wire
  // import { type Sealer, SealError } from '@boomerang/seal';

  function readCheckoutState(sealer: Sealer, token: string): unknown {
    try {
      return sealer.unsealJson(token, { context: 'checkout:42' });
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      // error.reason ('expired', 'forged', 'context', …) is for your logs and metrics only:
      console.warn(`state rejected: ${error.reason}`);
      // the caller gets the same answer whatever the reason, so probing teaches it nothing.
      throw new Error('Invalid or expired state');
    }
  }
  // #endregion on-the-wire
  return readCheckoutState(sealer, token);
}

/** The one call a KMS client makes for this example: unwrap a data key. */
export interface Kms {
  decrypt(wrappedKey: Uint8Array): Promise<Uint8Array>;
}

export async function kmsSealer(kms: Kms, wrappedKey: Uint8Array): Promise<Sealer> {
  // #region kms-codec
  // import { gcmsiv } from '@noble/ciphers/aes.js';
  // import { randomBytes } from '@noble/ciphers/utils.js';
  // import { createSealer, type SealCodec } from '@boomerang/seal';

  // Envelope encryption: the KMS unwraps a data key once at startup, then tokens are sealed locally
  // (a codec is synchronous). `kms` is your KMS client, `wrappedKey` the data key it encrypted.
  const dataKey = await kms.decrypt(wrappedKey);

  const codec: SealCodec = {
    seal(bytes) {
      const nonce = randomBytes(12);
      const box = Buffer.concat([nonce, gcmsiv(dataKey, nonce).encrypt(bytes)]);
      return `kms1.${box.toString('base64url')}`;
    },
    unseal(token) {
      const box = Buffer.from(token.slice(5), 'base64url');
      if (`kms1.${box.toString('base64url')}` !== token) throw new Error('not a canonical kms1 token');
      return gcmsiv(dataKey, box.subarray(0, 12)).decrypt(box.subarray(12)); // throws if tampered with
    },
  };

  // Expiry, audience and context are still enforced by the sealer, around the codec.
  const sealer = createSealer({ codec, ttlSeconds: 300, audience: 'billing' });
  // #endregion kms-codec
  return sealer;
}
