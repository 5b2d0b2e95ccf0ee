-- Browsers a person chose to trust ("Don't ask for a code on this device"): a random cookie, only its hash kept,
-- bound to one user. A trusted browser skips the second factor only, until it expires or is revoked.
create table trusted_devices (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  token_hash text not null unique,
  -- The factor proven when the trust was made: its amr is what later sign-ins from the browser record, and
  -- removing that factor revokes the user's trusted browsers.
  factor_id uuid,
  amr text[] not null,
  user_agent text,
  ip text,
  created_at timestamptz not null,
  last_used_at timestamptz,
  expires_at timestamptz not null
);
create index trusted_devices_user_id on trusted_devices (user_id);
create index trusted_devices_expires_at on trusted_devices (expires_at);
