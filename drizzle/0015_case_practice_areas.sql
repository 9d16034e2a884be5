-- Custom SQL migration file, put your code below! ---- One practice-area vocabulary: a case's free-text area takes the library's words (betterment_levy,
-- compensation, permits, planning). The words cases were opened with map as the tools map them on input; a
-- value no word names moves into the case's notes, so nothing written is lost.
WITH "mapped" AS (
  SELECT "id", "practice_area" AS "old",
    CASE lower(regexp_replace(btrim("practice_area"), '[\s_-]+', ' ', 'g'))
      WHEN 'betterment levy' THEN 'betterment_levy'
      WHEN 'betterment' THEN 'betterment_levy'
      WHEN 'levy' THEN 'betterment_levy'
      WHEN 'היטל השבחה' THEN 'betterment_levy'
      WHEN 'השבחה' THEN 'betterment_levy'
      WHEN 'compensation' THEN 'compensation'
      WHEN 'compensations' THEN 'compensation'
      WHEN 'פיצויים' THEN 'compensation'
      WHEN 'פיצוי' THEN 'compensation'
      WHEN 'permits' THEN 'permits'
      WHEN 'permit' THEN 'permits'
      WHEN 'היתרים' THEN 'permits'
      WHEN 'היתר' THEN 'permits'
      WHEN 'היתר בנייה' THEN 'permits'
      WHEN 'planning' THEN 'planning'
      WHEN 'plan' THEN 'planning'
      WHEN 'plans' THEN 'planning'
      WHEN 'תכנון' THEN 'planning'
      WHEN 'תכנית' THEN 'planning'
      WHEN 'תוכנית' THEN 'planning'
    END AS "area"
  FROM "cases"
  WHERE "practice_area" IS NOT NULL
)
UPDATE "cases" SET
  "practice_area" = "mapped"."area",
  "notes" = CASE WHEN "mapped"."area" IS NULL
    THEN concat_ws(E'\n\n', "cases"."notes", 'תחום: ' || "mapped"."old")
    ELSE "cases"."notes" END
FROM "mapped"
WHERE "cases"."id" = "mapped"."id" AND "mapped"."area" IS DISTINCT FROM "mapped"."old";
