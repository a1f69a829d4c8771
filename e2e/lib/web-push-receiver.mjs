// The user agent's side of Web Push, for tests: a P-256 key pair and auth secret to subscribe with,
// and the decryption of an aes128gcm body (RFC 8291, RFC 8188) and check of its VAPID header (RFC 8292).
import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, verify } from 'node:crypto';

const hmac = (key, data) => createHmac('sha256', key).update(data).digest();

export class WebPushReceiver {
  constructor() {
    this.ecdh = createECDH('prime256v1');
    this.publicKey = this.ecdh.generateKeys();
    this.auth = randomBytes(16);
  }

  /** What a browser's `PushSubscription.toJSON().keys` holds. */
  keys() {
    return { p256dh: this.publicKey.toString('base64url'), auth: this.auth.toString('base64url') };
  }

  /** The plaintext of `body`. */
  decrypt(body) {
    const salt = body.subarray(0, 16);
    const idLength = body[20];
    const senderPublic = body.subarray(21, 21 + idLength);
    const ciphertext = body.subarray(21 + idLength);
    const shared = this.ecdh.computeSecret(senderPublic);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), this.publicKey, senderPublic, Buffer.from([1])]);
    const ikm = hmac(hmac(this.auth, shared), keyInfo);
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== 2) throw new Error('no last-record delimiter');
    return padded.subarray(0, end);
  }
}

/** The VAPID header's claims, once its ES256 signature checks out against its own `k`. */
export function verifiedVapid(authorization) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [header, claims, signature] = match[1].split('.');
  const point = Buffer.from(match[2], 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const valid = verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('the VAPID signature does not verify');
  return { key: match[2], claims: JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) };
}
