-- AlterTable
ALTER TABLE "competitions" ADD COLUMN     "budget" INTEGER,
ADD COLUMN     "closed_at" TIMESTAMP(3),
ADD COLUMN     "correlation" JSONB,
ADD COLUMN     "mechanism" JSONB,
ADD COLUMN     "published_at" TIMESTAMP(3),
ADD COLUMN     "secret" BYTEA NOT NULL DEFAULT decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'),
ADD COLUMN     "sigma" DOUBLE PRECISION,
ADD COLUMN     "threshold" DOUBLE PRECISION;

-- The default above only fills existing rows (from pg_strong_random, via gen_random_uuid); new rows
-- get 32 bytes from node:crypto in the application.
ALTER TABLE "competitions" ALTER COLUMN "secret" DROP DEFAULT;

-- CreateTable
CREATE TABLE "competition_organizers" (
    "competition_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "competition_organizers_pkey" PRIMARY KEY ("competition_id","user_id")
);

-- CreateTable
CREATE TABLE "solutions" (
    "competition_id" UUID NOT NULL,
    "rows" INTEGER NOT NULL,
    "public_rows" INTEGER NOT NULL,
    "holdout_rows" INTEGER NOT NULL,
    "ids" BYTEA NOT NULL,
    "labels" BYTEA NOT NULL,
    "classes" JSONB,
    "split" BYTEA NOT NULL,
    "order_values" BYTEA,
    "group_codes" BYTEA,
    "group_names" JSONB,
    "state_codes" BYTEA,
    "state_names" JSONB,
    "sha256" TEXT NOT NULL,
    "uploaded_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "solutions_pkey" PRIMARY KEY ("competition_id")
);

-- CreateTable
CREATE TABLE "attachments" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "filename" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attachments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "competition_organizers_user_id_idx" ON "competition_organizers"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "attachments_competition_id_filename_key" ON "attachments"("competition_id", "filename");

-- AddForeignKey
ALTER TABLE "competition_organizers" ADD CONSTRAINT "competition_organizers_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "competition_organizers" ADD CONSTRAINT "competition_organizers_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "solutions" ADD CONSTRAINT "solutions_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing competitions: their creator organizes them.
INSERT INTO "competition_organizers" ("competition_id", "user_id") SELECT "id", "created_by_id" FROM "competitions";
