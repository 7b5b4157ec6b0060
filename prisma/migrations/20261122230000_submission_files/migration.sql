-- A submission keeps its note, its file name and the file itself (gzip-compressed, in a table of
-- its own so that the submissions table stays small).
ALTER TABLE "submissions" ADD COLUMN "description" TEXT;
ALTER TABLE "submissions" ADD COLUMN "filename" TEXT;

CREATE TABLE "submission_files" (
    "submission_id" UUID NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    CONSTRAINT "submission_files_pkey" PRIMARY KEY ("submission_id"),
    CONSTRAINT "submission_files_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "submissions"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
