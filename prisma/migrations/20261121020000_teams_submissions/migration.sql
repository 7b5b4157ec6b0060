-- CreateEnum
CREATE TYPE "AnswerKind" AS ENUM ('public', 'holdout', 'exhausted');

-- CreateTable
CREATE TABLE "teams" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "invite_code" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "initial_budget" INTEGER NOT NULL,
    "budget_remaining" INTEGER NOT NULL,
    "noisy_threshold" DOUBLE PRECISION,
    "query_count" INTEGER NOT NULL DEFAULT 0,
    "best_score" DOUBLE PRECISION,
    "best_at" TIMESTAMP(3),
    "submission_count" INTEGER NOT NULL DEFAULT 0,
    "last_submission_at" TIMESTAMP(3),
    "merged_into_id" UUID,

    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team_members" (
    "competition_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "accepted_rules_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_members_pkey" PRIMARY KEY ("competition_id","user_id")
);

-- CreateTable
CREATE TABLE "submissions" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "idempotency_key" TEXT,
    "file_sha256" TEXT NOT NULL,
    "stream_team_id" UUID NOT NULL,
    "query_index" INTEGER NOT NULL,
    "kind" "AnswerKind" NOT NULL,
    "answer" DOUBLE PRECISION,
    "budget_before" INTEGER NOT NULL,
    "budget_after" INTEGER NOT NULL,
    "public_score" DOUBLE PRECISION NOT NULL,
    "holdout_score" DOUBLE PRECISION NOT NULL,
    "selected" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "submissions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "teams_invite_code_key" ON "teams"("invite_code");

-- CreateIndex
CREATE INDEX "teams_competition_id_merged_into_id_idx" ON "teams"("competition_id", "merged_into_id");

-- CreateIndex
CREATE UNIQUE INDEX "teams_competition_id_name_key" ON "teams"("competition_id", "name");

-- CreateIndex
CREATE INDEX "team_members_team_id_idx" ON "team_members"("team_id");

-- CreateIndex
CREATE INDEX "submissions_team_id_created_at_idx" ON "submissions"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "submissions_competition_id_idx" ON "submissions"("competition_id");

-- CreateIndex
CREATE UNIQUE INDEX "submissions_stream_team_id_query_index_key" ON "submissions"("stream_team_id", "query_index");

-- CreateIndex
CREATE UNIQUE INDEX "submissions_user_id_idempotency_key_key" ON "submissions"("user_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "teams" ADD CONSTRAINT "teams_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
