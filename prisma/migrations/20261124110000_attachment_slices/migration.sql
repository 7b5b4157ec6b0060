-- Data files are downloaded a slice at a time (substring of the bytea, lib/server/platform/db.ts
-- streamSlices). Stored uncompressed out of line, a slice reads only its own TOAST chunks; stored
-- compressed (the default for a column whose values compress), every slice would decompress the
-- whole file. Applies to files written from now on.
ALTER TABLE "attachments" ALTER COLUMN "data" SET STORAGE EXTERNAL;
