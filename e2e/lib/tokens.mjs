// Tokens as API.md defines them (HS256 JWT: sub, did, exp), signed with the secret the harness
// gave the app, so a test signs in any user and device without a round trip.
import { createHmac } from 'node:crypto';

const base64url = (value) => Buffer.from(value).toString('base64url');

export function mintToken(secret, userId, deviceId, ttlSeconds = 3600) {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = base64url(JSON.stringify({
    sub: String(userId), did: deviceId, exp: Math.floor(Date.now() / 1000) + ttlSeconds,
  }));
  const signature = createHmac('sha256', secret).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}

// An operator's token (the ops dashboard): `ops: true` instead of a user and device.
export function mintOperatorToken(secret, ttlSeconds = 3600) {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = base64url(JSON.stringify({ sub: 'operator', ops: true, exp: Math.floor(Date.now() / 1000) + ttlSeconds }));
  const signature = createHmac('sha256', secret).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}
