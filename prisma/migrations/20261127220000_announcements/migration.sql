-- What a competition's participants are told: an organizer's post, or the app's own notice of changed
-- settings, of the deadline a day ahead and of the close (lib/server/competitions/announcements.ts).
-- `key` makes an automatic notice happen once per competition ("reminder:{deadline}", "closed").
CREATE TABLE "announcements" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "author_id" UUID,
    "kind" TEXT NOT NULL,
    "key" TEXT,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "announcements_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "announcements_competition_id_key_key" ON "announcements"("competition_id", "key");
CREATE INDEX "announcements_competition_id_created_at_idx" ON "announcements"("competition_id", "created_at");
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
