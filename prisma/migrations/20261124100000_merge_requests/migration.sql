-- Merges need the absorbed team's consent: a team asks another to merge into it (a request), and one
-- of that team's members accepts or declines; the requesting team may cancel. At most one pending
-- request per pair of teams in each direction.
CREATE TABLE "merge_requests" (
    "id" UUID NOT NULL,
    "competition_id" UUID NOT NULL,
    "from_team_id" UUID NOT NULL,
    "to_team_id" UUID NOT NULL,
    "requested_by_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMP(3),
    "decided_by_id" UUID,
    CONSTRAINT "merge_requests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "merge_requests_status_check" CHECK ("status" IN ('pending', 'accepted', 'declined', 'cancelled')),
    CONSTRAINT "merge_requests_competition_id_fkey" FOREIGN KEY ("competition_id") REFERENCES "competitions"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "merge_requests_from_team_id_fkey" FOREIGN KEY ("from_team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "merge_requests_to_team_id_fkey" FOREIGN KEY ("to_team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "merge_requests_requested_by_id_fkey" FOREIGN KEY ("requested_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "merge_requests_decided_by_id_fkey" FOREIGN KEY ("decided_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "merge_requests_pending_key" ON "merge_requests"("from_team_id", "to_team_id") WHERE "status" = 'pending';
CREATE INDEX "merge_requests_to_team_id_idx" ON "merge_requests"("to_team_id");
