-- Each data file's SHA-256, listed with it, so that a client can tell a file it already has from a
-- changed one (the CLI's download skips it, the Python client checks what it received).
ALTER TABLE "attachments" ADD COLUMN "sha256" TEXT;
UPDATE "attachments" SET "sha256" = encode(sha256("data"), 'hex');
ALTER TABLE "attachments" ALTER COLUMN "sha256" SET NOT NULL;
