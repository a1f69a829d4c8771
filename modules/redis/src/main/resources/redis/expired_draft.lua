-- Retention deleted a draft last updated before a cutoff: its field goes unless a newer draft
-- replaced it (a draft is stored as "updatedAt|text", draft.lua).
-- KEYS: the user's hash. ARGV: field, cutoff (ms).
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and tonumber(string.match(cur, '^(%d+)|')) < tonumber(ARGV[2]) then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
