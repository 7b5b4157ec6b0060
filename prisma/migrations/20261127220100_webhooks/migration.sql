-- An organizer's receivers of a competition's events, signed as Standard Webhooks
-- (lib/server/competitions/webhooks.ts); each event is a row of the outbox (kind 'webhook').
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secret" TEXT NOT NULL,
    "created_by_id" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "webhooks_competition_id_idx" ON "webhooks"("competition_id");
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- The delivery log of a webhook reads its outbox rows.
CREATE INDEX "outbox_webhook_idx" ON "outbox"((("payload"->>'webhookId'))) WHERE "kind" = 'webhook';
