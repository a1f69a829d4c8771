-- The key store of crypto-shredding (docs/design.md, "Erasure"): one AES-256 key per sealed text
-- (a message's content, an edit, a draft), wrapped by the master key master_key_id names. Deleting
-- a row erases its text everywhere the log and its copies keep it. Not a projection of the event
-- log (replay leaves it alone): losing it equals erasing every sealed text.
create table content_keys (
  key_id        text        primary key,
  owner_id      bigint      not null,
  conv_id       text        not null,
  client_msg_id text,
  target_seq    bigint,
  created_at    timestamptz not null default now(),
  master_key_id text        not null,
  wrapped       bytea       not null
);

create index content_keys_by_owner on content_keys (owner_id);
create index content_keys_by_age on content_keys (created_at);
create index content_keys_by_send on content_keys (conv_id, client_msg_id) where client_msg_id is not null;
create index content_keys_by_target on content_keys (conv_id, target_seq) where target_seq is not null;
create index content_keys_by_master on content_keys (master_key_id);

-- Users erased on request: a replay purges their rows again after rebuilding the projection.
create table erased_users (
  user_id   bigint      primary key,
  erased_at timestamptz not null default now()
);
