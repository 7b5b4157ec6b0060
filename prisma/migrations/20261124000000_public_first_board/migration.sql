-- The public-first board (docs/mechanism.md §2.6): each team's row shows its best public answer, or,
-- without one, its latest holdout answer; re-measurements are no longer made. Answers past a
-- competition's m, and answers after its holdout cap is reached, get kinds of their own; holdout
-- answers are released rounded to a number of decimals fixed at publishing (null: competitions
-- published before, whose answers were not rounded).

-- AlterEnum: ⊥ past the competition's m ("limit"), and ⊥ because its cap on holdout answers over all teams is reached ("capped")
ALTER TYPE "AnswerKind" ADD VALUE 'limit';
ALTER TYPE "AnswerKind" ADD VALUE 'capped';

-- AlterTable
ALTER TABLE "competitions" ADD COLUMN "answer_decimals" INTEGER;

-- AlterTable
ALTER TABLE "teams" ADD COLUMN "best_kind" TEXT CHECK ("best_kind" IN ('public', 'holdout'));

-- Every team's row again under the new rule, from its answers (accuracy is the one metric where higher is better).
WITH "best_public" AS (
  SELECT DISTINCT ON (s."team_id") s."team_id", s."answer", s."created_at"
  FROM "submissions" AS s JOIN "competitions" AS c ON c."id" = s."competition_id"
  WHERE s."kind" = 'public' AND s."answer" IS NOT NULL
  ORDER BY s."team_id", CASE WHEN c."metric" = 'accuracy' THEN -s."answer" ELSE s."answer" END, s."created_at"
), "latest_holdout" AS (
  SELECT DISTINCT ON (s."team_id") s."team_id", s."answer", s."created_at"
  FROM "submissions" AS s
  WHERE s."kind" = 'holdout' AND s."answer" IS NOT NULL
  ORDER BY s."team_id", s."created_at" DESC, s."query_index" DESC
)
UPDATE "teams" AS t SET
  "best_score" = COALESCE(bp."answer", lh."answer"),
  "best_at" = COALESCE(bp."created_at", lh."created_at"),
  "best_kind" = CASE WHEN bp."team_id" IS NOT NULL THEN 'public' WHEN lh."team_id" IS NOT NULL THEN 'holdout' END
FROM "teams" AS t2
LEFT JOIN "best_public" AS bp ON bp."team_id" = t2."id"
LEFT JOIN "latest_holdout" AS lh ON lh."team_id" = t2."id"
WHERE t."id" = t2."id";

-- The answer that selected a re-measured best: the rule above needs no second value.
ALTER TABLE "teams" DROP COLUMN "selection_score";

-- Baselines shown from now on show their exact public score (it releases nothing about the holdout);
-- those shown before keep the noisy holdout value they released (the board and the health page tell
-- the two apart by whether the shown value is the public score).
