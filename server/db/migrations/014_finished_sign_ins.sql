-- Sign-ins that finished (the user was sent back to the app), by the provider's interaction id, kept for a while so
-- the web app can tell a person who presses Back after signing in "You're signed in" instead of an error.
create table finished_sign_ins (
  interaction_uid text primary key,
  client_id text not null,
  expires_at timestamptz not null
);
create index finished_sign_ins_expires_at on finished_sign_ins (expires_at);
