-- Raises the floor (a rebuild that loaded only the latest countable seqs) and drops what is below it.
-- KEYS: conversation hash, countable, recalled. ARGV: floor.
local floor = tonumber(redis.call('HGET', KEYS[1], 'countableFloor') or '0')
if tonumber(ARGV[1]) <= floor then return 0 end
redis.call('HSET', KEYS[1], 'countableFloor', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
return 0
