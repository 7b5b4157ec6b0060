-- The competitions list's search and its "mine" filter, indexed at any number of competitions and
-- teams (lib/server/competitions/competitions.ts competitionListWhere):
-- a title's words, for a prefix search through PostgreSQL's full-text search ('simple': every word
-- lower-cased, none dropped, no stemming, whatever the language); the same expression as the query's.
CREATE INDEX "competitions_title_search_idx" ON "competitions" USING GIN (to_tsvector('simple', "title"));

-- The competitions a user is on a team of (the primary key leads with the competition).
CREATE INDEX "team_members_user_id_idx" ON "team_members"("user_id");
