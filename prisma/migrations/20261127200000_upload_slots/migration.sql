-- The uploads each account has in progress, over every app instance (lib/server/platform/uploads.ts):
-- a row per upload being read or waiting to be, taken before its first byte is read and deleted when
-- it ends. The instance holding it renews `expires_at` while the upload lasts, so the row of an
-- instance that died lapses within a minute. No foreign key: the app's warm-up reads its synthetic
-- files as an account that does not exist.
CREATE TABLE "upload_slots" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "upload_slots_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "upload_slots_user_id_idx" ON "upload_slots"("user_id");
