-- No planner statistics for the message columns no query filters, joins or sorts on. ANALYZE
-- samples 30,000 rows of messages however large the table grows, and autovacuum runs it each time a
-- tenth of the table is new; computing statistics for these columns (the content's text above all)
-- was most of its CPU: 0.18 s in one burst at 5,000 sends/s, every 30 to 60 s, on a machine where
-- the sends had no core to spare; 0.07 s without them (docs/design.md, "The projection (PostgreSQL, D4, R1, R7, R25)"). Kept: conv_id and seq (every
-- page), create_time (the archive's day slices). msg_id is looked up by its unique index, which
-- tells the planner one row without statistics.
alter table messages
  alter column msg_id set statistics 0,
  alter column sender_id set statistics 0,
  alter column sender_device set statistics 0,
  alter column client_msg_id set statistics 0,
  alter column type set statistics 0,
  alter column content set statistics 0,
  alter column recalled set statistics 0;
