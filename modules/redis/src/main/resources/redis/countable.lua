-- One countable message (a rebuild from PostgreSQL). After lib/countable.lua.
-- KEYS: conversation hash, countable, countable:sender, recalled. ARGV: seq, kept.
countable(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2])
return 0
