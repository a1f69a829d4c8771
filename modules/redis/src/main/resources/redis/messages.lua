-- A batch's stored messages, any number of them, as one run: each EVALSHA costs Redis its own
-- dispatch before the first command, and a batch held a hundred messages at 5,000 sends/s.
-- After lib/last.lua, lib/countable.lua and lib/max_field.lua.
-- ARGV[1]: the countable seqs kept per conversation; then operations, each taking the next KEYS:
--   'm', seq, createTime, message, countable (1/0) -- KEYS: conversation hash, countable,
--        countable:sender, recalled: the last message; its seq when countable;
--   'r', field, seq -- KEYS: the reader's hash: a read position, kept if greater.
-- In a Redis Cluster every key of one run is in one hash slot: the caller groups them.
local k, a = 1, 2
while a <= #ARGV do
  if ARGV[a] == 'm' then
    last(KEYS[k], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3])
    if ARGV[a + 4] == '1' then countable(KEYS[k], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], ARGV[a + 1], ARGV[1]) end
    k, a = k + 4, a + 5
  else
    maxField(KEYS[k], ARGV[a + 1], ARGV[a + 2])
    k, a = k + 1, a + 3
  end
end
return 0
