-- Keeps the greater of a hash field's number and ARGV[2] (read positions, cursors, watermarks).
-- KEYS: hash. ARGV: field, value. After lib/max_field.lua.
maxField(KEYS[1], ARGV[1], ARGV[2])
return 0
