-- Who may see a user's presence (online, away, last seen): 'members', everyone who shares a
-- conversation with them (the default: no row), or 'nobody'. Not a projection of the event log
-- (replay leaves it alone): a setting of the user's, not a conversation's event.
create table presence_settings (
  user_id    bigint primary key,
  visibility text   not null check (visibility in ('members', 'nobody'))
);
