-- Retention blanked a conversation's messages up to a seq: when its last message is among them,
-- the last message goes with its seq, time and the built mark, so that the next read of the list
-- rebuilds them from PostgreSQL (where they read as erased). A newer message keeps them.
-- KEYS: the conversation hash. ARGV: the highest seq blanked.
local cur = tonumber(redis.call('HGET', KEYS[1], 'latestSeq') or '0')
if cur > 0 and cur <= tonumber(ARGV[1]) then
  redis.call('HDEL', KEYS[1], 'latestSeq', 'updatedAt', 'last', 'built')
end
return 0
