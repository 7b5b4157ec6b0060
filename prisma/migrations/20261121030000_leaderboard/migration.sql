-- AlterTable
ALTER TABLE "teams" ADD COLUMN     "final_rank" INTEGER,
ADD COLUMN     "final_score" DOUBLE PRECISION,
ADD COLUMN     "live_rank" INTEGER;

-- CreateIndex
CREATE INDEX "teams_leaderboard_higher_idx" ON "teams"("competition_id", "best_score" DESC, "best_at");

-- CreateIndex
CREATE INDEX "teams_leaderboard_lower_idx" ON "teams"("competition_id", "best_score", "best_at");
