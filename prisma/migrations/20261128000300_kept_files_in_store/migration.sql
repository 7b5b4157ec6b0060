-- The kept copies of submissions and solutions leave the database for the file store
-- (lib/server/platform/files.ts), as data files did (20261127220400_file_store): each row keeps its
-- size and SHA-256 here and the compressed bytes under storage_key (solutions: file_key). Rows
-- written before keep their bytes in the bytea column until the server's start moves them
-- (moveKeptFilesToStore: idempotent, safe to interrupt), which then sets the key and clears the
-- bytes. The bytea columns stay, nullable, until every row is moved: a later migration drops them.
ALTER TABLE "submission_files" ADD COLUMN "storage_key" TEXT;
ALTER TABLE "submission_files" ALTER COLUMN "data" DROP NOT NULL;
ALTER TABLE "submission_files" ADD CONSTRAINT "submission_files_bytes_somewhere" CHECK ("storage_key" IS NOT NULL OR "data" IS NOT NULL);

ALTER TABLE "unranked_submissions" ADD COLUMN "storage_key" TEXT;
ALTER TABLE "unranked_submissions" ALTER COLUMN "file_data" DROP NOT NULL;
ALTER TABLE "unranked_submissions" ADD CONSTRAINT "unranked_submissions_bytes_somewhere" CHECK ("storage_key" IS NOT NULL OR "file_data" IS NOT NULL);

-- A solution's file was already optional (solutions uploaded before files were kept have none).
ALTER TABLE "solutions" ADD COLUMN "file_key" TEXT;
ALTER TABLE "solutions" ADD CONSTRAINT "solutions_file_in_one_place" CHECK ("file_key" IS NULL OR "file" IS NULL);
