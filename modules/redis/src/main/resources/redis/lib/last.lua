-- The last message and its time go with the highest seq seen (fields latestSeq, updatedAt, last:
-- ConversationIndex's LATEST_SEQ, UPDATED_AT, LAST_MESSAGE).
local function last(hash, seq, time, message)
  local cur = tonumber(redis.call('HGET', hash, 'latestSeq') or '0')
  if cur < tonumber(seq) then redis.call('HSET', hash, 'latestSeq', seq, 'updatedAt', time, 'last', message) end
end
