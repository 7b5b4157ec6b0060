-- Kept submission files are gzip already. PostgreSQL would try to compress each one again (pglz)
-- before storing it out of line, which for a 10⁶-row file (2.4 MB of gzip) costs about as much as
-- writing it and gains nothing: store these values out of line as they are.
ALTER TABLE "submission_files" ALTER COLUMN "data" SET STORAGE EXTERNAL;
ALTER TABLE "unranked_submissions" ALTER COLUMN "file_data" SET STORAGE EXTERNAL;
