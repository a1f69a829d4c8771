-- Message actions: edits, reactions, replies and mentions. Each is an event in the conversation's
-- log (a notice with its own seq, as a recall is); these columns keep every message's current
-- state beside its row, so a page shows it without replaying the notices. Both tiers alike: the
-- archive copies rows column for column.
--   edited_at  epoch ms of the latest edit (null: never edited); content is then the edited text
--   reply_to   the seq of the message this one replies to
--   mentions   the users it mentions (null: none); a mention above a user's read position counts
--              in their list entry
--   reactions  how many reactions it has (0: a page need not look them up)
alter table messages add column edited_at bigint, add column reply_to bigint, add column mentions bigint[],
  add column reactions integer not null default 0;
alter table archived_messages add column edited_at bigint, add column reply_to bigint, add column mentions bigint[],
  add column reactions integer not null default 0;
-- Pages select by (conv_id, seq): no statistics for the new columns (as V3 for the others).
alter table messages alter column edited_at set statistics 0, alter column reply_to set statistics 0,
  alter column mentions set statistics 0, alter column reactions set statistics 0;

-- The view over both tiers, with the new columns (appended at its end).
create or replace view all_messages as select * from messages union all select * from archived_messages;

-- One reaction per user, message and emoji.
create table message_reactions (
  conv_id    text   not null,
  seq        bigint not null,
  emoji      text   not null,
  user_id    bigint not null,
  created_at bigint not null,
  primary key (conv_id, seq, emoji, user_id)
);

-- Mentions not read yet: a row per mentioned user (the sender aside), deleted when their read
-- position reaches it or the message is recalled. The list's mention count is a count here.
create table mentions (
  user_id bigint not null,
  conv_id text   not null,
  seq     bigint not null,
  primary key (user_id, conv_id, seq)
);
create index mentions_conv_seq_idx on mentions (conv_id, seq);
