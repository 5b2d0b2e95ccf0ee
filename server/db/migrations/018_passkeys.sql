-- Passkeys (WebAuthn). Each passkey is a second factor of its own (mfa_factors kind 'passkey': its name, when it was
-- added and last used, default, the last-factor rule), with its credential kept beside it. A person may have several.
alter table mfa_factors drop constraint if exists mfa_factors_kind_check;
alter table mfa_factors add constraint mfa_factors_kind_check check (kind in ('email', 'sms', 'totp', 'passkey'));
drop index if exists mfa_factors_one_confirmed_per_kind;
create unique index mfa_factors_one_confirmed_per_kind on mfa_factors (user_id, kind) where confirmed_at is not null and kind <> 'passkey';

create table passkey_credentials (
  factor_id uuid primary key references mfa_factors (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  -- The authenticator's credential id (base64url): one authenticator is never added twice, to anyone.
  credential_id text not null unique,
  -- The COSE public key, base64url. Public: it verifies assertions, it cannot make them.
  public_key text not null,
  -- The signature counter the authenticator last reported; 0 for one that keeps none.
  counter bigint not null default 0,
  transports text[] not null default '{}',
  aaguid text not null,
  -- singleDevice (a security key, a device-bound passkey) or multiDevice (a synced passkey), and whether it is backed up.
  device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
  backed_up boolean not null,
  created_at timestamptz not null
);
create index passkey_credentials_user on passkey_credentials (user_id);

-- A WebAuthn challenge waiting for its answer: one per sign-in transaction or account session and purpose, used once.
create table passkey_challenges (
  owner text not null,
  purpose text not null check (purpose in ('register', 'authenticate')),
  challenge text not null,
  expires_at timestamptz not null,
  primary key (owner, purpose)
);
create index passkey_challenges_expires_at on passkey_challenges (expires_at);
