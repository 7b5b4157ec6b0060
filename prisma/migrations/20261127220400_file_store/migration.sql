-- Files' bytes leave the database for the file store (lib/server/platform/files.ts): a data file
-- keeps its name, size and SHA-256 here and its bytes under storage_key. Files stored before keep
-- their bytes in data until the server's start moves them (moveAttachmentsToStore: idempotent, safe
-- to interrupt), which then sets storage_key and clears data. Sizes may pass 2 GiB now.
ALTER TABLE "attachments" ADD COLUMN "storage_key" TEXT;
ALTER TABLE "attachments" ALTER COLUMN "data" DROP NOT NULL;
ALTER TABLE "attachments" ALTER COLUMN "size" TYPE BIGINT;
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_bytes_somewhere" CHECK ("storage_key" IS NOT NULL OR "data" IS NOT NULL);

-- The mark of the local directory this database's files are kept in (QUILTBOARD_FILES=local): an
-- instance whose directory has another mark is another machine's disk and refuses to start.
CREATE TABLE "file_store" (
    "singleton" BOOLEAN NOT NULL DEFAULT true,
    "mark" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "file_store_pkey" PRIMARY KEY ("singleton"),
    CONSTRAINT "file_store_singleton" CHECK ("singleton")
);
