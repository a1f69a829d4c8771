-- HSET field value unless the stored number is as large already.
local function maxField(hash, field, value)
  local cur = redis.call('HGET', hash, field)
  if (not cur) or tonumber(cur) < tonumber(value) then redis.call('HSET', hash, field, value) end
end
