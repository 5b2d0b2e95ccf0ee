-- The provider finds a row by uid always within one model (a Session by its uid, read ahead with each token). An
-- index on (model, uid) answers that with one index scan. With the uid-only index, a planner without statistics (the
-- embedded database never analyzes its tables) also scanned the primary key for every row of the model and
-- intersected the two, a cost that grew with the number of sessions.
create index oidc_payloads_model_uid on oidc_payloads (model, uid) where uid is not null;
drop index oidc_payloads_uid;
