-- The server API's idempotency keys: the first answer of each (service, key), replayed to a retry
-- of the same request for 24 hours. status is null while the first request is still running.
-- Not a projection of the event log (replay leaves it alone).
create table server_requests (
  service     text        not null,
  request_key text        not null,
  fingerprint text        not null,
  status      int,
  body        bytea,
  created_at  timestamptz not null default now(),
  primary key (service, request_key)
);

create index server_requests_by_age on server_requests (created_at);
