-- Organizers can take a team off the live and final boards (its budget is not restored), with a
-- reason shown on its page; reinstating clears both.
ALTER TABLE "teams" ADD COLUMN "disqualified_at" TIMESTAMP(3);
ALTER TABLE "teams" ADD COLUMN "disqualify_reason" TEXT;
