-- R22's cold tier. The hot table (messages) keeps the last archive.hot-days (45) days; the archive
-- job moves each conversation's older prefix of seqs here, one day of messages at a time.

-- The archive: the messages table's columns (a column added to messages must be added here too:
-- the job copies rows with select *) and key. Browsed by time within a conversation
-- (GET /v1/archive/messages: convId, before, newest first), hence the index.
create table archived_messages (like messages including defaults);
alter table archived_messages add primary key (conv_id, seq);
create index archived_messages_time_idx on archived_messages (conv_id, create_time desc, seq desc);
-- The delivery figures of a period select the messages sent in it, in either tier.
create index archived_messages_create_time_idx on archived_messages (create_time);

-- Both tiers as one, for what counts or lists a conversation's messages whatever their age (unread
-- counts, the rebuild of the conversation index): PostgreSQL pushes a query's conditions into both.
create view all_messages as select * from messages union all select * from archived_messages;

-- Every seq of a conversation up to archived_seq is in the archive, none above it: the hot floor.
alter table conversations add column archived_seq bigint not null default 0;

-- The archive job's progress: a day (UTC) is done once every message created in it has moved.
create table archived_days (
  day         date        primary key,
  messages    bigint      not null,
  finished_at timestamptz not null default now()
);
