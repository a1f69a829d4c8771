-- A group's owner: its creator, who alone may remove other members. Null for direct conversations.
alter table conversations add column owner_id bigint;
