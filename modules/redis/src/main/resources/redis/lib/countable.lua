-- Adds a countable seq (all senders, and its sender's) unless it is at or below the floor
-- (field countableFloor: ConversationIndex's FLOOR); past the kept number, drops the lowest from
-- the set of all, raises the floor to the highest dropped and trims the sender's and the recalled
-- sets to it (other senders' sets are trimmed when they next send: entries at or below the floor
-- are never counted, since a read position below the floor is answered from PostgreSQL).
local function countable(hash, all, mine, recalled, seq, kept)
  local floor = tonumber(redis.call('HGET', hash, 'countableFloor') or '0')
  if tonumber(seq) <= floor then return end
  redis.call('ZADD', all, seq, seq)
  redis.call('ZADD', mine, seq, seq)
  local excess = redis.call('ZCARD', all) - tonumber(kept)
  if excess > 0 then
    floor = tonumber(redis.call('ZRANGE', all, excess - 1, excess - 1)[1])
    redis.call('ZREMRANGEBYRANK', all, 0, excess - 1)
    redis.call('ZREMRANGEBYSCORE', recalled, '-inf', floor)
    redis.call('HSET', hash, 'countableFloor', floor)
  end
  redis.call('ZREMRANGEBYSCORE', mine, '-inf', floor)
end
