-- Co-organizers are invited, not added: an invitation is mailed to an address with a single-use
-- link (only its SHA-256 is stored), and the account with that address accepts it. At most one
-- pending invitation per address and competition (inviting again replaces it).
CREATE TABLE "organizer_invitations" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "invited_by_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "accepted_at" TIMESTAMP(3),
    CONSTRAINT "organizer_invitations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "organizer_invitations_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "organizer_invitations_invited_by_id_fkey" FOREIGN KEY ("invited_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "organizer_invitations_token_hash_key" ON "organizer_invitations"("token_hash");
CREATE UNIQUE INDEX "organizer_invitations_pending_key" ON "organizer_invitations"("competition_id", "email") WHERE "accepted_at" IS NULL;
