-- Each shown score carries a bound that depends on where it stands in its team's transcript
-- (docs/mechanism.md §2.8): its position i and the holdout answers f the team had received before it.
-- A merged team's transcript is both teams' queries in time order, and at most m of them: the
-- absorbing team counts the absorbed team's queries (`absorbed_queries`), and each submission keeps
-- the position it was answered at (its stream's query index plus what its team had absorbed then),
-- which the audit replays the limit m with.
ALTER TABLE "teams" ADD COLUMN "absorbed_queries" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "teams" ADD COLUMN "holdout_answers" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "teams" ADD COLUMN "best_position" INTEGER;
ALTER TABLE "teams" ADD COLUMN "best_prior" INTEGER;
ALTER TABLE "submissions" ADD COLUMN "position" INTEGER;
UPDATE "submissions" SET "position" = "query_index";
ALTER TABLE "submissions" ALTER COLUMN "position" SET NOT NULL;

UPDATE "teams" t SET "holdout_answers" = (SELECT count(*) FROM "submissions" s WHERE s."team_id" = t."id" AND s."kind" = 'holdout');
UPDATE "teams" t SET "absorbed_queries" = COALESCE((SELECT sum(a."query_count") FROM "teams" a WHERE a."merged_into_id" = t."id"), 0);
-- The shown answer's place in time order among the team's submissions (ties counted before it: a
-- later position only widens a bound), and the holdout answers before it.
UPDATE "teams" t SET
  "best_position" = (SELECT count(*) FROM "submissions" s WHERE s."team_id" = t."id" AND s."created_at" <= t."best_at"),
  "best_prior" = (SELECT count(*) FROM "submissions" s WHERE s."team_id" = t."id" AND s."kind" = 'holdout' AND s."created_at" < t."best_at")
WHERE t."best_at" IS NOT NULL;

-- No board since the public-first board re-measures a score or shows a baseline's noisy holdout
-- value (a baseline shows its public score), and every published competition releases its holdout
-- answers rounded (answer_decimals, fixed at publishing).
ALTER TABLE "submissions" DROP COLUMN "remeasure";
ALTER TABLE "teams" DROP COLUMN "remeasures";
ALTER TABLE "unranked_submissions" DROP COLUMN "baseline_score";
UPDATE "competitions" SET "answer_decimals" = LEAST(8, GREATEST(1, CEIL(-LOG((4 * "sigma" * LN(20)) / 10))))
WHERE "answer_decimals" IS NULL AND "sigma" IS NOT NULL AND "status" <> 'draft';
