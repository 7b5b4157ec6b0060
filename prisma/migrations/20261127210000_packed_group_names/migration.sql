-- A solution's group names are stored as its ids are (lib/csv/strings.ts PackedStrings: UTF-8, each
-- followed by a line break) instead of a JSON array, so that neither an upload nor the decoding of a
-- solution in each app instance makes a string per group (a million groups were a million strings).
-- A group name can no longer hold a line break (a solution with one is refused, naming its line); a
-- line break in a name stored before is kept as a space, which changes only how the name is shown.
ALTER TABLE "solutions" ADD COLUMN "group_names_packed" BYTEA;
UPDATE "solutions" SET "group_names_packed" = convert_to(coalesce(
    (SELECT string_agg(translate(g.name, E'\r\n', '  ') || E'\n', '' ORDER BY g.position)
     FROM jsonb_array_elements_text("group_names") WITH ORDINALITY AS g(name, position)), ''), 'UTF8')
  WHERE "group_names" IS NOT NULL;
ALTER TABLE "solutions" DROP COLUMN "group_names";
ALTER TABLE "solutions" RENAME COLUMN "group_names_packed" TO "group_names";
