-- A user's live push sockets across instances (SocketRegistry): a hash, one field per device,
-- value "<last beat ms>|<hidden 0/1>|<socket id>", and the field "@seen": when the user was last
-- seen with no live socket. A device whose last beat is older than the ttl is dropped (its
-- instance died), its beat kept as the last seen time. Then the operation:
--   open   the socket takes the device's field (a newer socket of a device replaces the older one)
--   beat   the socket's beat and hidden flag, unless another socket took the device (a field
--          lost with Redis's data is written again)
--   close  the field removed, only if it is still this socket's
-- KEYS: the user's hash. ARGV: op, now (ms), ttl (ms), device id, socket id, hidden (0/1),
-- retention (ms: how long the hash outlives its last write, for the last seen time).
-- Returns {live devices before, live devices after, visible devices before, visible devices after}.
local key, op = KEYS[1], ARGV[1]
local now, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])
local device, socket, hidden = ARGV[4], ARGV[5], ARGV[6]

-- Drops the devices that stopped beating (their last beat becomes @seen); counts the live and visible ones.
local function count()
  local live, visible, seen = 0, 0, 0
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    if all[i] ~= '@seen' then
      local beat, flag = string.match(all[i + 1], '^(%d+)|(%d)|')
      beat = tonumber(beat)
      if beat + ttl <= now then
        redis.call('HDEL', key, all[i])
        if beat > seen then seen = beat end
      else
        live = live + 1
        if flag == '0' then visible = visible + 1 end
      end
    end
  end
  if seen > 0 and seen > tonumber(redis.call('HGET', key, '@seen') or '0') then
    redis.call('HSET', key, '@seen', seen)
  end
  return live, visible
end

-- What the device's own field adds to the counts: (live, visible), from its value or nil.
local function own(value)
  if not value then return 0, 0 end
  return 1, (string.match(value, '^%d+|(%d)|') == '0') and 1 or 0
end

local liveBefore, visibleBefore = count()
local current = redis.call('HGET', key, device)
local mine = current and string.sub(current, -(#socket + 1)) == '|' .. socket
local after = current
if op == 'open' or (op == 'beat' and (mine or not current)) then
  after = now .. '|' .. hidden .. '|' .. socket
  redis.call('HSET', key, device, after)
elseif op == 'close' and mine then
  after = nil
  redis.call('HDEL', key, device)
end
local liveWas, visibleWas = own(current)
local liveIs, visibleIs = own(after)
local liveAfter = liveBefore - liveWas + liveIs
local visibleAfter = visibleBefore - visibleWas + visibleIs
if liveAfter == 0 and liveBefore > 0 then
  redis.call('HSET', key, '@seen', now)
end
redis.call('PEXPIRE', key, ARGV[7])
return {liveBefore, liveAfter, visibleBefore, visibleAfter}
