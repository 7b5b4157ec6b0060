-- An Idempotency-Key belongs to one team in one competition (it used to be one per user across
-- all competitions): unique per team stream, looked up under the team's lock.
DROP INDEX "submissions_user_id_idempotency_key_key";
CREATE UNIQUE INDEX "submissions_stream_team_id_idempotency_key_key" ON "submissions"("stream_team_id", "idempotency_key");
