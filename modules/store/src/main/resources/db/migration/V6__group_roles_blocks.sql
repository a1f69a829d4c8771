-- A group member's role besides ownership (conversations.owner_id names the owner): 'admin' or
-- 'member'. A group's settings: whether any member may add members.
alter table conversation_members add column role text not null default 'member'
  check (role in ('member', 'admin'));
alter table conversations add column members_can_invite boolean not null default false;

-- Who blocked whom: the sequencer refuses blocked_id's direct sends to blocker_id; the ingress reads
-- this table for the blocker's list and to refuse blocked_id adding blocker_id to a group.
-- since: when the sequencer decided the block (ms).
create table blocks (
  blocker_id bigint not null,
  blocked_id bigint not null,
  since      bigint not null,
  primary key (blocker_id, blocked_id)
);
