-- A webhook can receive "all" events, as such: those added after it was created too (team.merged
-- was added on 2026-11-27 at 22:55 UTC, and the webhooks created before with the default, "all",
-- kept the four events known then, so they never received it). A webhook with all_events has no
-- list of its own.
ALTER TABLE "webhooks" ADD COLUMN "all_events" BOOLEAN NOT NULL DEFAULT false;

-- The lists that were "every event known when the webhook was created" become "all": the five events
-- of today, in any order, whenever it was created; and the four known before team.merged, for a
-- webhook created before team.merged existed (its commit, fa51c8d, at 2026-11-27 22:55:54 UTC: no
-- release could offer it before). The same four on a webhook created later are an organizer's choice
-- to leave team.merged out, and stay as they are.
UPDATE "webhooks" SET "all_events" = true, "events" = '{}'
WHERE "events" @> ARRAY['submission.scored', 'announcement.posted', 'settings.changed', 'competition.closed']
  AND "events" <@ ARRAY['submission.scored', 'team.merged', 'announcement.posted', 'settings.changed', 'competition.closed']
  AND ('team.merged' = ANY ("events") OR "created_at" < '2026-11-27 22:55:54');

ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_all_events_or_a_list" CHECK ("all_events" = (cardinality("events") = 0));
