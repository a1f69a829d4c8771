-- An image or file message's attachment: its object's key, size, media type, name and, for images,
-- dimensions, as the event log has them (JSON; null for none). The bytes are in the object store.
-- In both tiers (the archive job copies rows with select *), and in the view of both.
alter table messages add column attachment text;
alter table archived_messages add column attachment text;
-- Never a query's condition: no statistics, as for content (V3).
alter table messages alter column attachment set statistics 0;
create or replace view all_messages as select * from messages union all select * from archived_messages;
