-- Companies a user can act for. Names are unique case-insensitively, so operators can address them by name.
create table companies (
  id uuid primary key,
  name text not null,
  name_normalized text not null unique,
  created_at timestamptz not null default now()
);

-- Who belongs to which company; last_used_at orders the picker and decides the pick when the picker is off.
create table company_memberships (
  user_id uuid not null references users (id) on delete cascade,
  company_id uuid not null references companies (id) on delete cascade,
  last_used_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (user_id, company_id)
);
create index company_memberships_company on company_memberships (company_id);

-- The company a sign-in settled on: keyed by its interaction until it finishes, then bound to the grant that
-- carries it into that sign-in's tokens (a grant belongs to one browser session and one client app).
create table sign_in_companies (
  interaction_uid text primary key,
  company_id uuid not null references companies (id) on delete cascade,
  grant_id text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sign_in_companies_grant on sign_in_companies (grant_id, created_at) where grant_id is not null;
create index sign_in_companies_expires_at on sign_in_companies (expires_at);

-- Invitations: the emailed link carries a random token; only its hash is kept. Used once, then dead.
create table invitations (
  id uuid primary key,
  token_hash text not null unique,
  user_id uuid not null references users (id) on delete cascade,
  company_id uuid references companies (id) on delete cascade,
  client_id text not null references clients (client_id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  renewed_at timestamptz
);
create index invitations_user on invitations (user_id);

-- Where a client app starts its own sign-in (OpenID Connect's initiate_login_uri): an accepted invitation
-- sends the browser there, so the app's sign-in, with its own state and PKCE, carries the invitation.
alter table clients add column initiate_login_uri text;
