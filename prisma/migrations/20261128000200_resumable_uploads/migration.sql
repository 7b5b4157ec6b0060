-- Resumable uploads of data files (lib/server/competitions/attachment-uploads.ts): an upload
-- declared with its name and size, whose parts arrive one request each, in any order, resumed after
-- a dropped connection; its attachment row is written only once every part is there and the whole
-- file's SHA-256 is computed. An upload without a part for QUILTBOARD_RESUMABLE_HOURS expires, and
-- the scheduler deletes its parts from the file store and then its row.
CREATE TABLE "attachment_uploads" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "filename" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "part_bytes" INTEGER NOT NULL,
    "sha256" TEXT,
    "storage_key" TEXT NOT NULL,
    "completing" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    -- No foreign key to the competition: a deleted competition's uploads stay until they expire, so
    -- that the scheduler still finds their parts in the store and deletes them.
    CONSTRAINT "attachment_uploads_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "attachment_uploads_competition_id_idx" ON "attachment_uploads"("competition_id");
CREATE INDEX "attachment_uploads_expires_at_idx" ON "attachment_uploads"("expires_at");

-- The parts of an upload that are in the store whole (uploads/<upload id>/<number>): their number
-- (from 1), size and SHA-256.
CREATE TABLE "attachment_upload_parts" (
    "upload_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    CONSTRAINT "attachment_upload_parts_pkey" PRIMARY KEY ("upload_id", "number"),
    CONSTRAINT "attachment_upload_parts_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "attachment_uploads"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
