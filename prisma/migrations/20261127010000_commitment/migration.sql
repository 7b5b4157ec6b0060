-- A competition commits at publishing to its solution and to its mechanism's secret with the settings
-- its answers are drawn with (lib/mechanism/commitment.ts, docs/mechanism.md §2.10); after the close
-- its organizers may reveal both and every answer (revealed_at).
ALTER TABLE "competitions" ADD COLUMN "solution_commitment" TEXT;
ALTER TABLE "competitions" ADD COLUMN "secret_commitment" TEXT;
ALTER TABLE "competitions" ADD COLUMN "committed_settings" TEXT;
ALTER TABLE "competitions" ADD COLUMN "revealed_at" TIMESTAMP(3);

-- The solution file as uploaded (compressed, as submissions' files are), which the reveal serves byte
-- for byte: its SHA-256 is the commitment. Files uploaded before this change were not kept.
ALTER TABLE "solutions" ADD COLUMN "file" BYTEA;
ALTER TABLE "solutions" ADD COLUMN "file_size" INTEGER;
ALTER TABLE "solutions" ALTER COLUMN "file" SET STORAGE EXTERNAL;
