-- The steps a sign-in has been admitted to, the current one last: the server admits a step's call only where the
-- current step leads to it by the flows' `next`, links or `guard` (or a step it reached before, after Back), so no
-- browser can skip a step by calling a later one.
alter table transactions add column steps text[] not null default '{}';
