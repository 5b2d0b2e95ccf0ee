-- People who sign in. Email is unique case-insensitively through email_normalized.
create table users (
  id uuid primary key,
  email text not null,
  email_normalized text not null unique,
  first_name text not null default '',
  last_name text not null default '',
  password_hash text,
  attributes jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Client apps. Redirect URIs are matched exactly; a confidential client's secret is encrypted at rest.
create table clients (
  client_id text primary key,
  name text not null,
  redirect_uris text[] not null,
  is_public boolean not null,
  secret_encrypted text,
  created_at timestamptz not null default now()
);

-- oidc-provider's models (sessions, interactions, codes, tokens, grants), keyed by model and id.
create table oidc_payloads (
  model text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  uid text,
  user_code text,
  expires_at timestamptz,
  consumed_at timestamptz,
  primary key (model, id)
);
create index oidc_payloads_grant_id on oidc_payloads (grant_id) where grant_id is not null;
create index oidc_payloads_uid on oidc_payloads (uid) where uid is not null;
create index oidc_payloads_expires_at on oidc_payloads (expires_at);

-- One sign-in in progress: the browser holds only a random token (HttpOnly cookie); we keep its hash.
create table transactions (
  token_hash text primary key,
  interaction_uid text not null unique,
  client_id text not null,
  challenge text not null,
  user_id uuid references users (id) on delete cascade,
  data jsonb not null default '{}',
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index transactions_expires_at on transactions (expires_at);

-- Single-use nonces bound into encrypted credentials, so a captured ciphertext cannot be replayed.
create table credential_nonces (
  nonce_hash text primary key,
  expires_at timestamptz not null
);
create index credential_nonces_expires_at on credential_nonces (expires_at);

-- Key material. Private keys are encrypted with the master key; retired keys stay usable for a grace period.
create table keys (
  kid text primary key,
  purpose text not null check (purpose in ('credentials', 'signing')),
  private_jwk_encrypted text not null,
  public_jwk jsonb not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);
