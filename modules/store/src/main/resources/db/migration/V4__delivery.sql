-- Delivery acceptance (R24) and single-message failures (R17), projected from seqsync.telemetry by
-- the delivery projector. Rebuildable by replaying that topic (it keeps a quarter).

-- One row per message and receiving device that rendered it: a repeated report changes nothing.
-- send_time and render_time are the two clients' clocks; create_time is the server's (the seq's).
create table message_renders (
  msg_id      bigint not null,
  user_id     bigint not null,
  device_id   text   not null,
  conv_id     text   not null,
  seq         bigint not null,
  sender_id   bigint not null,
  send_time   bigint not null,
  create_time bigint not null,
  render_time bigint not null,
  primary key (msg_id, user_id, device_id)
);

-- The negative-case library: every report of a failure or of a render later than the target,
-- with its root-cause class (docs/design.md, "Delivery acceptance"). Kept for investigation.
create table delivery_cases (
  msg_id      bigint not null,
  user_id     bigint not null,
  device_id   text   not null,
  cause       text   not null,
  conv_id     text   not null,
  seq         bigint not null,
  create_time bigint not null,
  latency_ms  bigint,
  detail      text,
  reported_at bigint not null,
  primary key (msg_id, user_id, device_id, cause)
);
create index delivery_cases_create_time_idx on delivery_cases (create_time);
