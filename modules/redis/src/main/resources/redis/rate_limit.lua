-- Token buckets as GCRA (each key holds its bucket's theoretical arrival time, in microseconds of
-- Redis's clock): admitted only when every bucket has a token, and then each gives one; refused,
-- nothing changes. The keys share a user's hash tag, so they are one slot of a cluster.
-- KEYS: the buckets. ARGV: per key, its interval and its tolerance ((burst - 1) * interval), in µs.
-- Returns {0, 0} when admitted, else {the µs to wait until every bucket has a token, the index
-- (from 1) of the bucket that waits longest}.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local wait = 0
local which = 0
local starts = {}
for i, key in ipairs(KEYS) do
  local tolerance = tonumber(ARGV[2 * i])
  local start = math.max(tonumber(redis.call('GET', key) or now), now)
  starts[i] = start
  if start - now - tolerance > wait then
    wait = start - now - tolerance
    which = i
  end
end
if wait > 0 then
  return {wait, which}
end
for i, key in ipairs(KEYS) do
  local tat = starts[i] + tonumber(ARGV[2 * i - 1])
  redis.call('SET', key, string.format('%d', tat), 'PX', math.floor((tat - now) / 1000) + 1)
end
return {0, 0}
