-- Wrong codes per subject (an account, or the address of a sign-up) and purpose, counted across every code issued
-- until the window ends: a new code no longer starts the count again.
create table code_guess_failures (
  subject text not null,
  purpose text not null,
  failures integer not null,
  expires_at timestamptz not null,
  primary key (subject, purpose)
);
create index code_guess_failures_expires_at on code_guess_failures (expires_at);

drop table one_time_code_failures;
drop table registration_code_failures;
