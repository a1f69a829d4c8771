-- The PostgreSQL projection of the event log. Everything here can be rebuilt by replaying
-- seqsync.events from the beginning into an empty database.

-- The hot tier of messages (R22): pages by (conv_id, seq), the primary key. Rows older than the
-- hot window move to an archive in day slices selected by create_time (the index below), so the
-- archive job needs no change to this table.
create table messages (
  conv_id       text    not null,
  seq           bigint  not null,
  msg_id        bigint  not null,
  sender_id     bigint  not null,
  sender_device text    not null,
  client_msg_id text    not null,
  type          text    not null,
  content       text    not null,
  create_time   bigint  not null,
  recalled      boolean not null default false,
  primary key (conv_id, seq)
);
create unique index messages_msg_id_key on messages (msg_id);
create index messages_create_time_idx on messages (create_time);

-- One row per conversation. latest_seq is the watermark: the highest seq committed in messages,
-- written in the same transaction as the rows, so nothing is announced before it is fetchable.
create table conversations (
  conv_id       text   primary key,
  kind          text   not null check (kind in ('direct', 'group')),
  name          text,
  latest_seq    bigint not null default 0,
  last_activity bigint not null default 0
);

-- Who belongs to a conversation. joined_seq: the seq at which the member joined (groups see
-- history from there on); 0 for the two users of a direct conversation.
create table conversation_members (
  conv_id    text   not null references conversations (conv_id),
  user_id    bigint not null,
  joined_seq bigint not null default 0,
  primary key (conv_id, user_id)
);
create index conversation_members_user_idx on conversation_members (user_id, conv_id);

-- Delivery cursors, per device (R11), and read positions, per user (R18): stored apart.
create table device_cursors (
  user_id   bigint not null,
  device_id text   not null,
  conv_id   text   not null,
  seq       bigint not null,
  primary key (user_id, device_id, conv_id)
);

create table read_positions (
  user_id bigint not null,
  conv_id text   not null,
  seq     bigint not null,
  primary key (user_id, conv_id)
);

create table drafts (
  user_id    bigint not null,
  conv_id    text   not null,
  device_id  text   not null,
  text       text   not null,
  updated_at bigint not null,
  primary key (user_id, conv_id)
);

-- The projector's consumer offsets, committed in the same transaction as the rows they produced.
create table projector_offsets (
  topic       text    not null,
  partition   integer not null,
  next_offset bigint  not null,
  primary key (topic, partition)
);

-- Seq steps other than +1 seen by the projector (R25): kept for investigation, never written over.
create table seq_anomalies (
  id           bigserial primary key,
  conv_id      text   not null,
  expected_seq bigint not null,
  actual_seq   bigint not null,
  msg_id       bigint not null,
  observed_at  timestamptz not null default now()
);
