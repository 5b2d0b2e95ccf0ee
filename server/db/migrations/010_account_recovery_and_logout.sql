-- An operator disabled the account: every session ended, and sign-in is refused like a wrong password.
alter table users add column disabled_at timestamptz;

-- Where a client app is sent after signing out (OpenID Connect RP-Initiated Logout), matched exactly, and where
-- it is told that a session ended (OpenID Connect Back-Channel Logout).
alter table clients add column post_logout_redirect_uris text[] not null default '{}';
alter table clients add column backchannel_logout_uri text;

-- Browsers that signed in to an account (a random cookie; only its hash is kept): a sign-in from any other one
-- sends the owner a notice.
create table known_browsers (
  user_id uuid not null references users (id) on delete cascade,
  browser_hash text not null,
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null,
  primary key (user_id, browser_hash)
);

-- The "This wasn't me" link of a security notice: a random token, only its hash kept, used once.
create table security_notice_links (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  notice text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index security_notice_links_expires_at on security_notice_links (expires_at);

-- The demo client app's sessions that a back-channel logout ended (by session id, or all of a user's before a time).
create table demo_logouts (
  subject text primary key,
  logged_out_at timestamptz not null,
  expires_at timestamptz not null
);
create index demo_logouts_expires_at on demo_logouts (expires_at);
