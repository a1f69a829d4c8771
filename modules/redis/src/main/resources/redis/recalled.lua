-- Marks a countable seq recalled unless it is at or below the floor (it counts no more anyway).
-- KEYS: conversation hash, recalled, recalled:sender. ARGV: seq.
local floor = tonumber(redis.call('HGET', KEYS[1], 'countableFloor') or '0')
if tonumber(ARGV[1]) <= floor then return 0 end
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[1], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', floor)
return 0
