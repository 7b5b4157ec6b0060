-- The columns take the names the code gives them: they hold a metric's value (an answer, a
-- public or holdout value), not a score as the board shows it (lib/metrics/display.ts).
ALTER TABLE "teams" RENAME COLUMN "best_score" TO "best_value";
ALTER TABLE "teams" RENAME COLUMN "final_score" TO "final_value";
ALTER TABLE "submissions" RENAME COLUMN "public_score" TO "public_value";
ALTER TABLE "submissions" RENAME COLUMN "holdout_score" TO "holdout_value";
ALTER TABLE "unranked_submissions" RENAME COLUMN "public_score" TO "public_value";
ALTER TABLE "unranked_submissions" RENAME COLUMN "holdout_score" TO "holdout_value";

-- PL/pgSQL reads its columns by name when it runs: the board's trigger function follows the rename
-- (20261126000000_board_ranking explains it).
CREATE OR REPLACE FUNCTION "bump_board_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "competitions" SET "board_version" = "board_version" + 1
    WHERE "id" IN (SELECT n."competition_id" FROM "new_rows" n WHERE n."submission_count" > 0);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "competitions" SET "board_version" = "board_version" + 1
    WHERE "id" IN (SELECT o."competition_id" FROM "old_rows" o WHERE o."submission_count" > 0);
  ELSE
    UPDATE "competitions" SET "board_version" = "board_version" + 1
    WHERE "id" IN (
      SELECT n."competition_id" FROM "new_rows" n JOIN "old_rows" o ON o."id" = n."id"
      WHERE (o."best_value", o."best_at", o."merged_into_id" IS NULL AND o."disqualified_at" IS NULL AND o."submission_count" > 0)
        IS DISTINCT FROM (n."best_value", n."best_at", n."merged_into_id" IS NULL AND n."disqualified_at" IS NULL AND n."submission_count" > 0));
  END IF;
  RETURN NULL;
END
$$;
