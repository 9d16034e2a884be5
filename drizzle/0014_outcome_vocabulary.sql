-- Custom SQL migration file, put your code below! ---- One outcome vocabulary: the library's rulings and decisions, and the style corpus's readings, take the
-- committee's words (rejection, partial_acceptance, full_acceptance) instead of rejected/partially_accepted/accepted.
UPDATE "decision_metadata" SET "outcome" = CASE "outcome"
  WHEN 'rejected' THEN 'rejection'
  WHEN 'partially_accepted' THEN 'partial_acceptance'
  WHEN 'accepted' THEN 'full_acceptance'
  ELSE "outcome" END
WHERE "outcome" IN ('rejected', 'partially_accepted', 'accepted');--> statement-breakpoint
UPDATE "style_enrichments" SET "outcome" = CASE "outcome"
  WHEN 'rejected' THEN 'rejection'
  WHEN 'partially_accepted' THEN 'partial_acceptance'
  WHEN 'accepted' THEN 'full_acceptance'
  ELSE "outcome" END
WHERE "outcome" IN ('rejected', 'partially_accepted', 'accepted');
