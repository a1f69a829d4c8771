-- A draft is stored as "updatedAt|text"; the newest one wins (a tie: the later write).
-- KEYS: the user's hash. ARGV: field, updatedAt, text.
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if (not cur) or tonumber(string.match(cur, '^(%d+)|')) <= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. ARGV[3])
end
return 0
