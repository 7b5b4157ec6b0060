-- AlterTable
ALTER TABLE "competitions" ADD COLUMN     "holdout_answers" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "holdout_cap" INTEGER,
ADD COLUMN     "max_queries" INTEGER;

-- AlterTable
ALTER TABLE "submissions" ADD COLUMN     "remeasure" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "remeasures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "selection_score" DOUBLE PRECISION;

-- Teams scored before re-measurement was introduced: their shown best is also the answer that selected it.
UPDATE "teams" SET "selection_score" = "best_score";

-- Holdout answers released so far, per competition.
UPDATE "competitions" AS c SET "holdout_answers" = (SELECT count(*) FROM "submissions" AS s WHERE s."competition_id" = c."id" AND s."kind" = 'holdout');
