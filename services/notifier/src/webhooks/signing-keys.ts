import type { KeyObject } from 'node:crypto';
import { openSecret, type SecretKeks } from './secrets.js';
import { endpointKeys, type EndpointKeys } from './signature.js';

/**
 * The endpoints' HMAC keys, opened once per sealed secret instead of once per delivery: decrypting
 * the secret (AES-256-GCM) and preparing an HMAC key from a string cost more than signing a body.
 * A key is looked up by endpoint and used only while the row's sealed secret is the one it was
 * opened from, so a regenerated secret takes effect with the next attempt claimed after it.
 * Bounded: past `max` endpoints the oldest entry is dropped (and opened again when needed). A secret
 * re-sealed under a new KEK is a new sealed value: it is opened again, to the same key.
 */
export class SigningKeys {
  private readonly keys = new Map<string, { sealed: string; keys: EndpointKeys }>();

  constructor(
    private readonly kek: Buffer | SecretKeks,
    private readonly max = 10_000,
  ) {}

  /** Throws SecretUnavailableError when the sealed secret does not open (nothing is cached then). */
  keysFor(endpointId: string, sealed: string): EndpointKeys {
    const hit = this.keys.get(endpointId);
    if (hit?.sealed === sealed) return hit.keys;
    const keys = endpointKeys(openSecret(sealed, this.kek, endpointId));
    this.keys.delete(endpointId);
    if (this.keys.size >= this.max) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(endpointId, { sealed, keys });
    return keys;
  }

  /** The spec's key: the whole `whsec_…` string as shown to the merchant, UTF-8. */
  keyFor(endpointId: string, sealed: string): KeyObject {
    return this.keysFor(endpointId, sealed).spec;
  }

  /** An endpoint that is gone or got a new secret: its old key is not kept around. */
  forget(endpointId: string): void {
    this.keys.delete(endpointId);
  }
}
