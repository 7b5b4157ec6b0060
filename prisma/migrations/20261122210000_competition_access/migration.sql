-- Who may take part, set by organizers (also after publishing): {requireVerifiedEmail,
-- allowedEmailDomains, approval}; and the requests to take part when approval is on.
ALTER TABLE "competitions" ADD COLUMN "access" JSONB NOT NULL DEFAULT '{}';

CREATE TABLE "registrations" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMP(3),
    CONSTRAINT "registrations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "registrations_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "registrations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "registrations_competition_id_user_id_key" ON "registrations"("competition_id", "user_id");
