-- A user's open push sockets across instances: a sorted set of socket ids scored by when each
-- expires (ms), refreshed while it is open. Drops the expired, then adds the socket unless the user
-- already holds the cap, not counting the sockets it replaces (its device's older ones).
-- KEYS: the user's socket set. ARGV: now (ms), expiry (ms), cap, the socket id, the ids it replaces...
-- Returns 1 when added, 0 when refused.
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
for i = 5, #ARGV do
  redis.call('ZREM', KEYS[1], ARGV[i])
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1
