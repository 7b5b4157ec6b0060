-- Organizing a competition leaves a mark: a co-organizer who is removed (or, before this migration,
-- removed themself) keeps their row with the time of the removal, so that they can never compete in
-- a competition whose raw scores they saw (lib/server/competitions/organizers.ts).
ALTER TABLE "competition_organizers" ADD COLUMN "removed_at" TIMESTAMP(3);

-- Removals before this migration deleted the row. Every co-organizer came through an accepted
-- invitation, so the accounts that accepted one and have no row were removed: they get their mark
-- back (removed now; the real time was not kept). The address is the one the invitation was sent
-- to, which was the account's when it accepted.
INSERT INTO "competition_organizers" ("competition_id", "user_id", "created_at", "removed_at")
SELECT DISTINCT ON (i."competition_id", u."id") i."competition_id", u."id", i."accepted_at", CURRENT_TIMESTAMP
FROM "organizer_invitations" i JOIN "users" u ON u."email" = i."email"
WHERE i."accepted_at" IS NOT NULL
ORDER BY i."competition_id", u."id", i."accepted_at"
ON CONFLICT DO NOTHING;

-- A creator removed by a co-organizer (which is no longer possible) keeps the mark of having organized.
INSERT INTO "competition_organizers" ("competition_id", "user_id", "created_at", "removed_at")
SELECT c."id", c."created_by_id", c."created_at", CURRENT_TIMESTAMP FROM "competitions" c
ON CONFLICT DO NOTHING;
