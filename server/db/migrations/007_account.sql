-- The account page (/auth/account): names and a default for second factors, when each was last used,
-- recovery codes, the device behind each provider session, and step-ups proven on the account page.
alter table mfa_factors add column label text;
alter table mfa_factors add column is_default boolean not null default false;
alter table mfa_factors add column last_used_at timestamptz;

-- Single-use recovery codes: only a keyed hash is kept; used_at marks a spent one.
create table recovery_codes (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  code_hash text not null,
  created_at timestamptz not null,
  used_at timestamptz
);
create index recovery_codes_user on recovery_codes (user_id);
create unique index recovery_codes_hash on recovery_codes (user_id, code_hash);

-- The browser behind each provider session (oidc-provider's Session uid): seen at sign-in, touched on use.
create table session_devices (
  session_uid text primary key,
  user_id uuid not null references users (id) on delete cascade,
  user_agent text not null,
  ip text not null,
  started_at timestamptz not null,
  last_active_at timestamptz not null
);
create index session_devices_user on session_devices (user_id);

-- A second factor proven on the account page, per provider session: adding or removing a factor needs a fresh one.
create table account_step_ups (
  session_uid text primary key,
  user_id uuid not null references users (id) on delete cascade,
  verified_at timestamptz not null
);
