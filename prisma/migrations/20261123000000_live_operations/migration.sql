-- Running a live competition: late submissions (organizer's choice), a record of every settings
-- change, users banned from one competition, and submissions outside the mechanism (late ones,
-- answered exactly after the close, and organizers' sandbox tests, which can be shown as baselines).
ALTER TABLE "competitions" ADD COLUMN "late_submissions" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "competition_changes" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "changes" JSONB NOT NULL,
    CONSTRAINT "competition_changes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "competition_changes_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "competition_changes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "competition_changes_competition_id_created_at_idx" ON "competition_changes"("competition_id", "created_at");

CREATE TABLE "competition_bans" (
    "competition_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "competition_bans_pkey" PRIMARY KEY ("competition_id", "user_id"),
    CONSTRAINT "competition_bans_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "competition_bans_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TYPE "UnrankedKind" AS ENUM ('late', 'sandbox');

CREATE TABLE "unranked_submissions" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "kind" "UnrankedKind" NOT NULL,
    "team_id" UUID,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "file_sha256" TEXT NOT NULL,
    "public_score" DOUBLE PRECISION NOT NULL,
    "holdout_score" DOUBLE PRECISION NOT NULL,
    "description" TEXT,
    "filename" TEXT,
    "file_size" INTEGER NOT NULL,
    "file_data" BYTEA NOT NULL,
    "baseline_name" TEXT,
    "baseline_score" DOUBLE PRECISION,
    CONSTRAINT "unranked_submissions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "unranked_submissions_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "unranked_submissions_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "unranked_submissions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "unranked_submissions_competition_id_kind_idx" ON "unranked_submissions"("competition_id", "kind");
CREATE INDEX "unranked_submissions_team_id_created_at_idx" ON "unranked_submissions"("team_id", "created_at");
