-- The live board's order is cached by each app instance (lib/server/boards/ranking.ts), so that a
-- page reads only its own rows. `board_version` says which order a cache holds: every change to
-- what orders a team or puts it on the board (its shown answer and when it was given, its first
-- submission, a merge, a disqualification or reinstatement) bumps it in the transaction that makes
-- the change, through the triggers below, whoever writes the row. A reader that finds the version
-- it cached therefore reads the order PostgreSQL would compute in that snapshot.
ALTER TABLE "competitions" ADD COLUMN "board_version" BIGINT NOT NULL DEFAULT 0;

-- Once per statement (a bulk insert bumps each competition once), for the competitions of the rows
-- whose place changed: the columns of boards/leaderboard.ts liveOrder (id and created_at never
-- change) and its filter.
CREATE FUNCTION "bump_board_version"() RETURNS trigger LANGUAGE plpgsql AS $$
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
      WHERE (o."best_score", o."best_at", o."merged_into_id" IS NULL AND o."disqualified_at" IS NULL AND o."submission_count" > 0)
        IS DISTINCT FROM (n."best_score", n."best_at", n."merged_into_id" IS NULL AND n."disqualified_at" IS NULL AND n."submission_count" > 0));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "teams_board_insert" AFTER INSERT ON "teams" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_board_version"();
CREATE TRIGGER "teams_board_update" AFTER UPDATE ON "teams" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_board_version"();
CREATE TRIGGER "teams_board_delete" AFTER DELETE ON "teams" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_board_version"();
