-- Push notifications and every other outbound HTTP delivery driven by the event log
-- (modules/notifier). None of these tables but conversation_settings is a projection: a replay
-- keeps pushers, the outbox, the ledger and the dead letters.

-- A device's pushers: where its notifications go. kind 'http': a push gateway speaking Matrix's
-- push gateway API (url, pushkey, app_id); kind 'webpush': a browser's subscription (url is its
-- endpoint, p256dh and auth its keys, RFC 8291).
create table pushers (
  pusher_id  bigserial primary key,
  user_id    bigint not null,
  device_id  text   not null,
  kind       text   not null check (kind in ('http', 'webpush')),
  url        text   not null,
  pushkey    text,
  app_id     text,
  p256dh     text,
  auth       text,
  created_at bigint not null,
  unique (user_id, device_id, url)
);
create index pushers_user_idx on pushers (user_id);

-- A user's list settings per conversation (mute, pin): projected from the event log.
create table conversation_settings (
  user_id bigint  not null,
  conv_id text    not null,
  muted   boolean not null default false,
  pinned  boolean not null default false,
  primary key (user_id, conv_id)
);

-- Deliveries planned from the event log and not yet settled. One row per (channel, target,
-- stream, slot): a coalescing channel uses one slot per stream, so a burst updates one row; an
-- ordered channel uses the seq as the slot. due_at: when it may be sent (the end of a coalescing
-- window, or of a retry's back-off); claimed_by: the instance sending it now (a lease until due_at).
create table notifier_outbox (
  id         bigserial primary key,
  channel    text   not null,
  target     text   not null,
  stream     text   not null,
  slot       text   not null,
  seq        bigint not null,
  payload    bytea  not null,
  due_at     bigint not null,
  attempts   integer not null default 0,
  claimed_by text,
  last_error text,
  created_at bigint not null,
  unique (channel, target, stream, slot)
);
create index notifier_outbox_due_idx on notifier_outbox (channel, due_at);

-- The ledger: per (channel, target, stream) the highest seq settled (delivered or dead-lettered).
-- An event at or below it is never planned again: a replayed batch, or one read again after a
-- crash, sends nothing twice.
create table notifier_settled (
  channel text   not null,
  target  text   not null,
  stream  text   not null,
  seq     bigint not null,
  primary key (channel, target, stream)
);

-- Deliveries that failed every try (or that their receiver refused for good): kept for operators
-- (docs/operations.md, "Dead-lettered deliveries"), never retried by themselves.
create table notifier_dead_letters (
  id          bigserial primary key,
  channel     text    not null,
  target      text    not null,
  stream      text    not null,
  seq         bigint  not null,
  payload     bytea   not null,
  attempts    integer not null,
  last_error  text    not null,
  failed_at   bigint  not null
);
create index notifier_dead_letters_channel_idx on notifier_dead_letters (channel, failed_at);
