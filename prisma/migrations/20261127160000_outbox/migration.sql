-- Every mail the app sends, written with the event it tells of and sent by whichever app instance
-- claims it first, retried with back-off (lib/server/platform/outbox.ts): `key` names the event and
-- the recipient, so each is queued once.
CREATE TABLE "outbox" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMP(3),
    "delivered_at" TIMESTAMP(3),
    "failed_at" TIMESTAMP(3),
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "outbox_key_key" ON "outbox"("key");
-- What the scheduler looks for: the rows still to send, by when they are due.
CREATE INDEX "outbox_due_idx" ON "outbox"("next_attempt_at") WHERE "delivered_at" IS NULL AND "failed_at" IS NULL;

-- The kinds of notification mail a user turned off (lib/validation/accounts.ts NOTIFICATION_KINDS).
ALTER TABLE "users" ADD COLUMN "muted_notifications" TEXT[] NOT NULL DEFAULT '{}';
