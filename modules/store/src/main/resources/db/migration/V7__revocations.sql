-- Signed-out devices: a token of the user's device issued before revoked_before is refused. Not a
-- projection of the event log (replay leaves it alone): sign-outs are not conversation events.
-- device_id '*' stands for every device of the user. Every instance polls the rows by revision,
-- which grows with each write, so that a sign-out reaches all of them within the poll interval.
create sequence revocation_revisions;

create table revocations (
  user_id        bigint not null,
  device_id      text   not null,
  revoked_before bigint not null,
  revision       bigint not null default nextval('revocation_revisions'),
  primary key (user_id, device_id)
);

create index revocations_by_revision on revocations (revision);
