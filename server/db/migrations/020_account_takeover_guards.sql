-- The address a security notice went to: "This wasn't me" from that mailbox puts the address back if it was
-- changed since, so the password reset that follows is mailed to the owner, not to whoever moved the address.
alter table security_notice_links add column sent_to text;

-- A second factor proven at sign-in counts as the account page's step-up for that sign-in's grant, for as long as
-- a step-up lasts (expires_at).
create table sign_in_step_ups (
  grant_id text primary key,
  user_id uuid not null references users (id) on delete cascade,
  verified_at timestamptz not null,
  expires_at timestamptz not null
);
create index sign_in_step_ups_expires_at on sign_in_step_ups (expires_at);
