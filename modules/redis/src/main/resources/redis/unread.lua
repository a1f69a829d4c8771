-- Unread for a read position, atomically with the floor: -1 when the position is below it.
-- KEYS: conversation hash, countable, recalled, countable:user, recalled:user. ARGV: read seq.
local floor = tonumber(redis.call('HGET', KEYS[1], 'countableFloor') or '0')
if tonumber(ARGV[1]) < floor then return -1 end
local above = '(' .. ARGV[1]
return (redis.call('ZCOUNT', KEYS[2], above, '+inf') - redis.call('ZCOUNT', KEYS[3], above, '+inf'))
  - (redis.call('ZCOUNT', KEYS[4], above, '+inf') - redis.call('ZCOUNT', KEYS[5], above, '+inf'))
