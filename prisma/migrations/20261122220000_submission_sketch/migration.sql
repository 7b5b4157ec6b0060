-- A submission's predictions on a fixed sample of holdout rows (128 Int32 values), to find teams
-- whose submissions are near-identical without reading whole files (lib/server/sybil.ts).
ALTER TABLE "submissions" ADD COLUMN "sketch" BYTEA;
