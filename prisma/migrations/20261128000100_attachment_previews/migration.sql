-- What the Data tab shows of a data file, computed once while its upload streamed into the store
-- (lib/csv/profile.ts): a CSV file's first rows and column summaries, or why there is none. NULL for
-- the files uploaded before previews existed, which the tab says have no preview.
ALTER TABLE "attachments" ADD COLUMN "preview" JSONB;
