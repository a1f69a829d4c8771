// Tokens as API.md defines them (HS256 JWT: sub, did, exp), signed with the secret the harness
// gave the app, so a test signs in any user and device without a round trip.
import { createHmac } from 'node:crypto';

const base64url = (value) => Buffer.from(value).toString('base64url');

function signed(secret, claims, ttlSeconds) {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = base64url(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) + ttlSeconds }));
  const signature = createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${signature}`;
}

export function mintToken(secret, userId, deviceId, ttlSeconds = 3600) {
  return signed(secret, { sub: String(userId), did: deviceId }, ttlSeconds);
}

// An operator's token (the ops dashboard): `ops: true` instead of a user and device.
export function mintOperatorToken(secret, ttlSeconds = 3600) {
  return signed(secret, { sub: 'operator', ops: true }, ttlSeconds);
}

// A service's token (the server API): `service: true`, the service's name as `sub`, no device.
export function mintServiceToken(secret, name, ttlSeconds = 3600) {
  return signed(secret, { sub: name, service: true }, ttlSeconds);
}
