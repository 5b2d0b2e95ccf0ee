-- A client app with this setting gets a refresh token with every sign-in, without asking for offline_access.
alter table clients add column refresh_tokens boolean not null default false;
