-- Every change to a client app is announced on the `sso_cache` channel (LISTEN/NOTIFY), so each server process drops
-- its cached copy of the clients at once, whichever process (or operator's SQL) made the change.
create or replace function notify_clients_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('sso_cache', 'clients');
  return null;
end;
$$;

create trigger clients_changed after insert or update or delete or truncate on clients
  for each statement execute function notify_clients_changed();
