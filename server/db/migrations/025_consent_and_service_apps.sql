-- A first-party client app (one of ours) signs people in without asking their consent; every other app asks once.
alter table clients add column first_party boolean not null default false;
-- What a person agreed a client app may have (its scopes, offline_access among them), remembered until they revoke
-- it on the account page; a request for more than this asks again.
create table app_consents (
  user_id uuid not null references users (id) on delete cascade,
  client_id text not null references clients (client_id) on delete cascade,
  scopes text[] not null,
  granted_at timestamptz not null default now(),
  primary key (user_id, client_id)
);
-- An RFC 8707 resource indicator names one resource server: introspection must know whose tokens it may describe.
create unique index clients_resource_server on clients (resource_server) where resource_server is not null;
